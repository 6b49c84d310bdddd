import { createFileRoute } from "@tanstack/react-router";
import { type AnalyticsListSearch, validateAnalyticsSearch } from "../../../lib/queries/analytics";
import { AnalyticsPage } from "../../../pages/app/analytics";

export const Route = createFileRoute("/app/analytics/")({
  staticData: { titleKey: "pages.analytics" },
  // Read as it comes, kept out of every page's first download: the screen's chunk cleans it.
  validateSearch: (search: Record<string, unknown>) => search as AnalyticsListSearch,
  component: AnalyticsRoute,
});

function AnalyticsRoute() {
  const search = validateAnalyticsSearch(Route.useSearch());
  const navigate = Route.useNavigate();
  return (
    <AnalyticsPage
      search={search}
      onSearch={(patch) =>
        void navigate({
          search: (previous) => validateAnalyticsSearch({ ...previous, page: undefined, ...patch }),
        })
      }
    />
  );
}
