import { createFileRoute, redirect } from "@tanstack/react-router";
import { AppLayout } from "../../components/layout/app-layout";
import { getSession } from "../../lib/session";

export const Route = createFileRoute("/app")({
  beforeLoad: () => {
    if (getSession().token === null) throw redirect({ to: "/login" });
  },
  component: AppLayout,
});
