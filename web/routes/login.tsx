import { createFileRoute } from "@tanstack/react-router";
import { LoginPage } from "../pages/public/login";
import { redirectWhenSignedIn, validateAuthSearch } from "./-auth-search";

export const Route = createFileRoute("/login")({
  validateSearch: validateAuthSearch,
  beforeLoad: redirectWhenSignedIn,
  component: LoginRoute,
});

function LoginRoute() {
  const { invite } = Route.useSearch();
  return <LoginPage initialTab="signin" inviteToken={invite} />;
}
