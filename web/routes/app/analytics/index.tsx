import { createFileRoute } from "@tanstack/react-router";
import { AnalyticsPage } from "../../../pages/app/analytics";

export const Route = createFileRoute("/app/analytics/")({
  staticData: { titleKey: "pages.analytics" },
  component: AnalyticsPage,
});
