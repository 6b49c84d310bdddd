import { createFileRoute } from "@tanstack/react-router";
import { CreateSitePage } from "../../pages/app/create-site";

export const Route = createFileRoute("/app/create-site")({
  staticData: { titleKey: "pages.createSite" },
  component: CreateSitePage,
});
