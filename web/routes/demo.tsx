import { createFileRoute } from "@tanstack/react-router";
import { loadStringSet } from "../lib/i18n";
import { DemoPage } from "../pages/public/demo";

// The demo shows the app's screens, so it loads the app's strings.
export const Route = createFileRoute("/demo")({ loader: () => loadStringSet("app"), component: DemoPage });
