import { createFileRoute } from "@tanstack/react-router";
import { SitePage } from "../../pages/app/site";

export const Route = createFileRoute("/app/sites_/$siteId")({
  staticData: { titleKey: "pages.site" },
  // Checked against the tabs by the page (an unknown tab opens the overview), so the list stays out
  // of the code every page loads.
  validateSearch: ({ tab }: Record<string, unknown>): { tab?: string } =>
    typeof tab === "string" ? { tab } : {},
  component: SiteRoute,
});

function SiteRoute() {
  const { siteId } = Route.useParams();
  const { tab } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <SitePage
      siteId={siteId}
      tab={tab}
      onTabChange={(next) =>
        void navigate({ search: next === "overview" ? {} : { tab: next }, replace: true })
      }
    />
  );
}
