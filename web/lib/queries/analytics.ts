import { queryOptions } from "@tanstack/react-query";
import type { AnalyticsQuery, AnalyticsRecord } from "../../../schema/api/analytics";
import { ApiRequestError, api } from "../api";
import { shouldRetryQuery } from "../query-client";

export type AnalyticsRange = AnalyticsQuery["range"];

/** The list reads 24 h, the detail 7 days unless the user picks another range. */
export const LIST_RANGE: AnalyticsRange = "24h";
export const DETAIL_DEFAULT_RANGE: AnalyticsRange = "7d";

export const analyticsKeys = {
  all: ["analytics"] as const,
  list: (range: AnalyticsRange) => [...analyticsKeys.all, "list", range] as const,
  system: (systemId: string, range: AnalyticsRange) =>
    [...analyticsKeys.all, "system", systemId, range] as const,
};

function analyticsPath(system: string, range: AnalyticsRange): string {
  return `/analytics?${new URLSearchParams({ system, range }).toString()}`;
}

/** GET /api/analytics?system=all: one record per system, without series. */
export const analyticsListQueryOptions = (range: AnalyticsRange = LIST_RANGE) =>
  queryOptions({
    queryKey: analyticsKeys.list(range),
    queryFn: ({ signal }) => api.get<AnalyticsRecord[]>(analyticsPath("all", range), { signal }),
  });

/** A 404 (unknown system, or another organisation's) will not change on a retry. */
function retryUnlessNotFound(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiRequestError && error.status === 404) return false;
  return shouldRetryQuery(failureCount, error);
}

/**
 * GET /api/analytics?system={id}&range=: the system's record with its power series and energy per
 * plant-local day (the first item is used; an empty list means no system was returned).
 */
export const systemAnalyticsQueryOptions = (systemId: string, range: AnalyticsRange) =>
  queryOptions({
    queryKey: analyticsKeys.system(systemId, range),
    queryFn: ({ signal }) => api.get<AnalyticsRecord[]>(analyticsPath(systemId, range), { signal }),
    retry: retryUnlessNotFound,
  });
