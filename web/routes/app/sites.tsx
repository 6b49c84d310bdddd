import { createFileRoute } from "@tanstack/react-router";
import { SitesPage } from "../../pages/app/sites";

export const Route = createFileRoute("/app/sites")({
  staticData: { titleKey: "pages.sites" },
  component: SitesPage,
});
