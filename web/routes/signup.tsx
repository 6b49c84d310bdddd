import { createFileRoute } from "@tanstack/react-router";
import { LoginPage } from "../pages/public/login";
import { redirectWhenSignedIn, validateAuthSearch } from "./-auth-search";

export const Route = createFileRoute("/signup")({
  validateSearch: validateAuthSearch,
  beforeLoad: redirectWhenSignedIn,
  component: SignupRoute,
});

function SignupRoute() {
  const { invite } = Route.useSearch();
  return <LoginPage initialTab="signup" inviteToken={invite} />;
}
