import { createFileRoute } from "@tanstack/react-router";
import { type SiteListSearch, validateSiteListSearch } from "../../lib/site-list-search";
import { SitesPage } from "../../pages/app/sites";

export const Route = createFileRoute("/app/sites")({
  staticData: { titleKey: "pages.sites" },
  // Read as it comes, kept out of every page's first download: the screen's chunk cleans it.
  validateSearch: (search: Record<string, unknown>) => search as SiteListSearch,
  component: SitesRoute,
});

function SitesRoute() {
  const search = validateSiteListSearch(Route.useSearch());
  const navigate = Route.useNavigate();
  return (
    <SitesPage
      search={search}
      onSearch={(patch: Partial<SiteListSearch>) =>
        void navigate({
          // A new search or filter starts at the first page; the page alone keeps the rest.
          search: (previous) => validateSiteListSearch({ ...previous, page: undefined, ...patch }),
        })
      }
    />
  );
}
