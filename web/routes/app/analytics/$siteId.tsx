import { createFileRoute } from "@tanstack/react-router";
import { SiteAnalyticsPage } from "../../../pages/app/site-analytics";

export const Route = createFileRoute("/app/analytics/$siteId")({
  staticData: { titleKey: "pages.siteAnalytics" },
  component: SiteAnalyticsRoute,
});

function SiteAnalyticsRoute() {
  const { siteId } = Route.useParams();
  return <SiteAnalyticsPage siteId={siteId} />;
}
