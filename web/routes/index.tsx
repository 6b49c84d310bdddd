import { createFileRoute } from "@tanstack/react-router";
import { loadStringSet } from "../lib/i18n";
import { LandingPage } from "../pages/public/landing";

export const Route = createFileRoute("/")({ loader: () => loadStringSet("landing"), component: LandingPage });
