import { createFileRoute } from "@tanstack/react-router";
import { type AlertsSearch, validateAlertsSearch } from "../../lib/queries/alerts";
import { AlertsPage } from "../../pages/app/alerts";

export const Route = createFileRoute("/app/alerts")({
  staticData: { titleKey: "pages.alerts" },
  // Read as it comes, kept out of every page's first download: the screen's chunk cleans it.
  validateSearch: (search: Record<string, unknown>) => search as Partial<AlertsSearch>,
  component: AlertsRoute,
});

function AlertsRoute() {
  const search = validateAlertsSearch(Route.useSearch());
  const navigate = Route.useNavigate();
  return (
    <AlertsPage
      search={search}
      onSearch={(next) => void navigate({ search: validateAlertsSearch({ ...next }) })}
    />
  );
}
