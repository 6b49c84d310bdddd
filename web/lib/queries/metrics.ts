import { replaceEqualDeep } from "@tanstack/react-query";
import type { SystemsPageQuery } from "../../../schema/api/dashboard";
import type { DashboardMetric } from "../../../schema/api/metrics";
import { shouldRetryQuery } from "../query-client";

/** Everything the dashboard reads lives under ['dashboard'] (site and provider writes invalidate it). */
export const dashboardKeys = {
  all: ["dashboard"] as const,
  /** The fleet's totals as the API computed them. */
  summary: () => [...dashboardKeys.all, "summary"] as const,
  /** Epoch ms since when neither the summary nor the fallback could be read; null once they can. */
  unavailable: () => [...dashboardKeys.all, "unavailable"] as const,
  /** Pages of the systems list, by their query. */
  systemPages: () => [...dashboardKeys.all, "systems"] as const,
  systems: (query: SystemsPageQuery) => [...dashboardKeys.systemPages(), query] as const,
  /** The fleet's series for today (chart and change indicators), read in the viewer's zone. */
  series: (timeZone: string) => [...dashboardKeys.all, "series", timeZone] as const,
};

/** The dashboard's reads refresh every 30 s with one retry. */
export const METRICS_REFETCH_MS = 30_000;
export const METRICS_RETRIES = 1;

/** One retry, never after an authentication failure. */
export const retryOnce = (failureCount: number, error: unknown) =>
  failureCount < METRICS_RETRIES && shouldRetryQuery(failureCount, error);

/**
 * A read that started before a live message can answer after it: an entry the socket has
 * already made newer is kept rather than put back to the older values.
 */
export function keepNewerEntries(previous: unknown, next: unknown): unknown {
  if (!Array.isArray(previous) || !Array.isArray(next)) return replaceEqualDeep(previous, next);
  const previousById = new Map((previous as DashboardMetric[]).map((metric) => [metric.systemId, metric]));
  const merged = (next as DashboardMetric[]).map((metric) => {
    const cached = previousById.get(metric.systemId);
    if (!cached?.dataTime || !metric.dataTime) return metric;
    return Date.parse(cached.dataTime) > Date.parse(metric.dataTime) ? cached : metric;
  });
  return replaceEqualDeep(previous, merged);
}
