import { createContext, type ReactNode, useContext } from "react";
import type { Profile } from "../../schema/api/auth";

const ProfileContext = createContext<Profile | null>(null);

/** Provided by the /app layout once the profile has loaded, so screens below never see it missing. */
export function ProfileProvider({ profile, children }: { profile: Profile; children: ReactNode }) {
  return <ProfileContext.Provider value={profile}>{children}</ProfileContext.Provider>;
}

export function useCurrentProfile(): Profile {
  const profile = useContext(ProfileContext);
  if (!profile) throw new Error("useCurrentProfile must be used inside the /app layout");
  return profile;
}
