import { createFileRoute } from "@tanstack/react-router";
import { PortfoliosPage } from "../../pages/app/portfolios";

export const Route = createFileRoute("/app/portfolios")({
  staticData: { titleKey: "pages.portfolios" },
  component: PortfoliosPage,
});
