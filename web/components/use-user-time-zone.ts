import { useQuery } from "@tanstack/react-query";
import { preferencesQueryOptions } from "../lib/queries/user";

/** The zone dates are shown in: the user's saved preference, else the browser's own. */
export function useUserTimeZone(): string | undefined {
  const preferences = useQuery(preferencesQueryOptions());
  return preferences.data?.timezone;
}
