import { createFileRoute } from "@tanstack/react-router";
import { SiteManagementPage } from "../../pages/app/site-management";

export const Route = createFileRoute("/app/site-management")({
  staticData: { titleKey: "pages.siteManagement" },
  component: SiteManagementPage,
});
