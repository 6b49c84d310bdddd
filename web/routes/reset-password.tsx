import { createFileRoute } from "@tanstack/react-router";
import { QueryScope } from "../components/query-scope";
import { ResetPasswordPage } from "../pages/public/reset-password";

export const Route = createFileRoute("/reset-password")({
  // `?token=…` of a reset link; anything else in the query string is dropped.
  validateSearch: (search: Record<string, unknown>): { token?: string } =>
    typeof search.token === "string" ? { token: search.token } : {},
  component: ResetPasswordRoute,
});

function ResetPasswordRoute() {
  const { token } = Route.useSearch();
  return (
    <QueryScope>
      <ResetPasswordPage token={token} />
    </QueryScope>
  );
}
