import { createFileRoute, redirect } from "@tanstack/react-router";
import { AppLayout } from "../../components/layout/app-layout";
import { loadStringSet } from "../../lib/i18n";
import { getSession } from "../../lib/session";

export const Route = createFileRoute("/app")({
  beforeLoad: () => {
    if (getSession().token === null) throw redirect({ to: "/login" });
  },
  // The app's strings load beside its screens' code, the first time any of them is visited.
  loader: () => loadStringSet("app"),
  component: AppLayout,
});
