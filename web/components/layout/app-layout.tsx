import { useQuery } from "@tanstack/react-query";
import { Navigate } from "@tanstack/react-router";
import { profileQueryOptions } from "../../lib/queries/user";
import { useSession } from "../../lib/session";
import { OnboardingPage } from "../../pages/app/onboarding";
import { ProfileProvider } from "../profile-context";
import { QueryScope } from "../query-scope";
import { SettingsProvider } from "../settings/settings-context";
import { FullPageSpinner } from "../ui/spinner";
import { AppShell } from "./app-shell";

/** The /app layout: the app's screens fetch, so they render inside the query scope. */
export function AppLayout() {
  return (
    <QueryScope>
      <SignedInApp />
    </QueryScope>
  );
}

/** Redirect when signed out, spinner while the profile loads, onboarding when needed. */
function SignedInApp() {
  const { token } = useSession();
  const profileQuery = useQuery({ ...profileQueryOptions(), enabled: token !== null });

  if (token === null) return <Navigate to="/login" replace />;
  // A failed first load ends the session (SessionBootstrap), which brings the redirect above.
  if (profileQuery.data === undefined) return <FullPageSpinner />;

  const profile = profileQuery.data;
  // A superAdmin belongs to no organisation by design and is never asked to create one.
  if (profile.onboardingRequired && profile.role !== "superAdmin") {
    return (
      <ProfileProvider profile={profile}>
        <OnboardingPage />
      </ProfileProvider>
    );
  }

  return (
    <ProfileProvider profile={profile}>
      <SettingsProvider>
        <AppShell token={token} hasOrganisation={profile.companyId !== null} />
      </SettingsProvider>
    </ProfileProvider>
  );
}
