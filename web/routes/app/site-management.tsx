import { createFileRoute } from "@tanstack/react-router";
import { type SiteListSearch, validateSiteListSearch } from "../../lib/site-list-search";
import { SiteManagementPage } from "../../pages/app/site-management";

export const Route = createFileRoute("/app/site-management")({
  staticData: { titleKey: "pages.siteManagement" },
  // Read as it comes, kept out of every page's first download: the screen's chunk cleans it.
  validateSearch: (search: Record<string, unknown>) => search as SiteListSearch,
  component: SiteManagementRoute,
});

function SiteManagementRoute() {
  const search = validateSiteListSearch(Route.useSearch());
  const navigate = Route.useNavigate();
  return (
    <SiteManagementPage
      search={search}
      onSearch={(patch: Partial<SiteListSearch>) =>
        void navigate({
          search: (previous) => validateSiteListSearch({ ...previous, page: undefined, ...patch }),
        })
      }
    />
  );
}
