import { createFileRoute } from "@tanstack/react-router";
import { AlertsPage } from "../../pages/app/alerts";

export const Route = createFileRoute("/app/alerts")({
  staticData: { titleKey: "pages.alerts" },
  component: AlertsPage,
});
