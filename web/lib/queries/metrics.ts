import {
  type QueryFunctionContext,
  queryOptions,
  replaceEqualDeep,
  skipToken,
  useQuery,
} from "@tanstack/react-query";
import type { DashboardMetric } from "../../../schema/api/metrics";
import { dashboardFallbackSchema } from "../../../schema/api/metrics";
import { normalisedPowerW, normalisedTodayWh } from "../../../schema/metric-normalise";
import { api } from "../api";
import { isCancellation, shouldRetryQuery } from "../query-client";

/** Everything the dashboard reads lives under ['dashboard'] (site and provider writes invalidate it). */
export const dashboardKeys = {
  all: ["dashboard"] as const,
  metrics: () => [...dashboardKeys.all, "metrics"] as const,
  /** Epoch ms since when neither the metrics nor the fallback could be read; null once they can. */
  metricsUnavailable: () => [...dashboardKeys.all, "metrics-unavailable"] as const,
  /** The fleet's series for today (chart and change indicators), read in the viewer's zone. */
  series: (timeZone: string) => [...dashboardKeys.all, "series", timeZone] as const,
};

/** Metrics refresh every 30 s with one retry. */
export const METRICS_REFETCH_MS = 30_000;
export const METRICS_RETRIES = 1;

/** One retry, never after an authentication failure. */
export const retryOnce = (failureCount: number, error: unknown) =>
  failureCount < METRICS_RETRIES && shouldRetryQuery(failureCount, error);

/** The id of the single entry built from the debug endpoint when the metrics call fails. */
export const FALLBACK_SYSTEM_ID = "dashboard-fallback";

export function isFallbackMetric(metric: Pick<DashboardMetric, "systemId">): boolean {
  return metric.systemId === FALLBACK_SYSTEM_ID;
}

/**
 * The fallback endpoint's answer as metrics: one solis entry with the fleet totals when any site matched, else
 * nothing. The endpoint's units are not declared, so the shared metric normalisation reads them.
 */
export function fallbackMetrics(body: unknown): DashboardMetric[] {
  const parsed = dashboardFallbackSchema.safeParse(body);
  if (!parsed.success || parsed.data.matchedSites <= 0) return [];
  const powerW = normalisedPowerW({ currentPower: parsed.data.totalCurrentPower });
  const todayWh = normalisedTodayWh({ todayGeneration: parsed.data.totalTodayGeneration });
  return [
    {
      systemId: FALLBACK_SYSTEM_ID,
      siteId: null,
      siteName: null,
      stationName: "",
      provider: "solis",
      providerId: "",
      currentPowerW: powerW,
      pac: powerW,
      currentPower: powerW,
      power: powerW,
      todayGenerationWh: todayWh,
      etoday: todayWh / 1000,
      todayGeneration: todayWh / 1000,
      yieldtoday: todayWh / 1000,
      capacity: 0,
      efficiency: 0,
      performanceRatio: null,
      expectedTodayWh: null,
      state: 1,
      status: "online",
      dataTime: null,
      stale: false,
      timezone: "UTC",
      inverters: [],
      location: { address: null, latitude: null, longitude: null },
    },
  ];
}

/**
 * GET /dashboard/metrics; a non-array answer is an empty list. When the call fails the debug
 * endpoint stands in; a cancelled call is not a failure and is passed on as it is.
 */
export async function fetchDashboardMetrics(signal?: AbortSignal): Promise<DashboardMetric[]> {
  try {
    const metrics = await api.get<unknown>("/dashboard/metrics", { signal });
    return Array.isArray(metrics) ? (metrics as DashboardMetric[]) : [];
  } catch (error) {
    if (isCancellation(error)) throw error;
    console.error("Dashboard metrics failed; trying /api/debug/dashboard-test", error);
    try {
      return fallbackMetrics(await api.get<unknown>("/api/debug/dashboard-test", { signal }));
    } catch (fallbackError) {
      console.error("Dashboard fallback failed", fallbackError);
      throw error;
    }
  }
}

/**
 * One retry, then an empty list when neither call answers on the first
 * load. A failed refresh keeps the figures already shown. Either way the failure is flagged in
 * the cache, so the screen can say the data is unavailable rather than only "no sites".
 */
async function readMetrics({ signal, client }: QueryFunctionContext): Promise<DashboardMetric[]> {
  const state = client.getQueryState(dashboardKeys.metrics());
  const failuresSoFar = state?.fetchFailureCount ?? 0;
  try {
    const metrics = await fetchDashboardMetrics(signal);
    if (client.getQueryData(dashboardKeys.metricsUnavailable())) {
      client.setQueryData(dashboardKeys.metricsUnavailable(), null);
    }
    return metrics;
  } catch (error) {
    if (isCancellation(error)) throw error;
    if (failuresSoFar < METRICS_RETRIES && shouldRetryQuery(failuresSoFar, error)) throw error;
    if (!client.getQueryData(dashboardKeys.metricsUnavailable())) {
      client.setQueryData(dashboardKeys.metricsUnavailable(), Date.now());
    }
    if (state?.data !== undefined) throw error;
    return [];
  }
}

/** Since when the fleet's metrics could not be read (epoch ms), or null/undefined while they can. */
export function useMetricsUnavailableSince(): number | null | undefined {
  return useQuery<number | null>({ queryKey: dashboardKeys.metricsUnavailable(), queryFn: skipToken }).data;
}

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

export const metricsQueryOptions = () =>
  queryOptions({
    queryKey: dashboardKeys.metrics(),
    queryFn: readMetrics,
    refetchInterval: METRICS_REFETCH_MS,
    retry: retryOnce,
    structuralSharing: keepNewerEntries,
  });
