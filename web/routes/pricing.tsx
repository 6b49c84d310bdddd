import { createFileRoute } from "@tanstack/react-router";
import { loadStringSet } from "../lib/i18n";
import { PricingPage } from "../pages/public/pricing";

export const Route = createFileRoute("/pricing")({
  loader: () => loadStringSet("pricing"),
  component: PricingPage,
});
