import { createFileRoute } from "@tanstack/react-router";
import { PricingPage } from "../pages/public/pricing";

export const Route = createFileRoute("/pricing")({ component: PricingPage });
