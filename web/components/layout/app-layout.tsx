import { useQuery } from "@tanstack/react-query";
import { Navigate } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { profileQueryOptions } from "../../lib/queries/user";
import { useSession } from "../../lib/session";
import { ProfileProvider } from "../profile-context";
import { QueryScope } from "../query-scope";
import { SettingsProvider } from "../settings/settings-context";
import { FullPageSpinner } from "../ui/spinner";
import { AppShell } from "./app-shell";

// Only an account without an organisation sees onboarding: its own chunk, off every screen's download.
const OnboardingPage = lazy(() =>
  import("../../pages/app/onboarding").then((module) => ({ default: module.OnboardingPage })),
);

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
        <Suspense fallback={<FullPageSpinner />}>
          <OnboardingPage />
        </Suspense>
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
