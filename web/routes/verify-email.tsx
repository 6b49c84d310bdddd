import { createFileRoute } from "@tanstack/react-router";
import { VerifyEmailPage } from "../pages/public/verify-email";

export const Route = createFileRoute("/verify-email")({
  // `?token=…` of a verification link; anything else in the query string is dropped.
  validateSearch: (search: Record<string, unknown>): { token?: string } =>
    typeof search.token === "string" ? { token: search.token } : {},
  component: VerifyEmailRoute,
});

function VerifyEmailRoute() {
  const { token } = Route.useSearch();
  return <VerifyEmailPage token={token} />;
}
