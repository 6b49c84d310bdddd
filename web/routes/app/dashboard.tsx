import { createFileRoute } from "@tanstack/react-router";
import { DashboardPage } from "../../pages/app/dashboard";

export const Route = createFileRoute("/app/dashboard")({
  staticData: { titleKey: "pages.dashboard" },
  component: DashboardPage,
});
