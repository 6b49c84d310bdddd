import { createFileRoute } from "@tanstack/react-router";
import { LossesPage } from "../../pages/app/losses";

export const Route = createFileRoute("/app/losses")({
  staticData: { titleKey: "pages.losses" },
  component: LossesPage,
});
