import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../api";
import { dashboardKeys, retryOnce } from "./metrics";
import { preferencesQueryOptions } from "./user";

/** The hourly rollups change with every sync; the whole-fleet answer is read again this often. */
export const SERIES_REFRESH_MS = 5 * 60_000;

/** GET /api/dashboard/series: today's chart and comparisons for the whole fleet, in one call. */
export const fleetSeriesQueryOptions = (timeZone: string) =>
  queryOptions({
    queryKey: dashboardKeys.series(timeZone),
    queryFn: ({ signal }) => api.get("/dashboard/series", { query: { tz: timeZone }, signal }),
    staleTime: SERIES_REFRESH_MS,
    refetchInterval: SERIES_REFRESH_MS,
    retry: retryOnce,
  });

/**
 * The fleet series with "today" in the zone dates are shown in (useUserTimeZone's rule: the saved
 * preference, else the browser's). It waits for the preferences so the day is not read twice.
 */
export function useFleetSeries() {
  const preferences = useQuery(preferencesQueryOptions());
  const timeZone = preferences.isPending
    ? undefined
    : (preferences.data?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  return useQuery({ ...fleetSeriesQueryOptions(timeZone ?? "UTC"), enabled: timeZone !== undefined });
}
