import {
  keepPreviousData,
  type QueryFunctionContext,
  queryOptions,
  replaceEqualDeep,
  skipToken,
  useQuery,
} from "@tanstack/react-query";
import {
  type DashboardSummary,
  dashboardSummarySchema,
  type SystemsPage,
  type SystemsPageQuery,
  summaryProviders,
} from "../../../schema/api/dashboard";
import { dashboardFallbackSchema } from "../../../schema/api/metrics";
import { normalisedPowerW, normalisedTodayWh } from "../../../schema/metric-normalise";
import { api } from "../api";
import { isCancellation, shouldRetryQuery } from "../query-client";
import { dashboardKeys, keepNewerEntries, METRICS_REFETCH_MS, METRICS_RETRIES, retryOnce } from "./metrics";

/** The summary as read: from the API, or built from the fallback totals when the API failed. */
export interface SummaryRead {
  summary: DashboardSummary;
  /** True when the figures are the fallback endpoint's totals (no per-system detail). */
  fallback: boolean;
}

/** A fleet without systems (what a failed first load and an unreadable answer show). */
export function emptySummary(): DashboardSummary {
  return {
    generatedAt: new Date().toISOString(),
    systemCount: 0,
    excludedSystemCount: 0,
    totals: {
      systemCount: 0,
      todayWh: 0,
      powerW: 0,
      capacityKw: 0,
      meanEfficiencyPercent: null,
      performanceRatio: null,
      dataTime: null,
    },
    providers: summaryProviders.map((provider) => ({
      provider,
      siteCount: 0,
      systemCount: 0,
      capacityKw: 0,
      powerW: 0,
    })),
    sites: { count: 0, activeCount: 0 },
    weatherPlace: null,
  };
}

/**
 * The fallback answer as a summary (docs/product.md): when any site matched, one solis system carrying the
 * fleet's power and energy; else no systems. The endpoint's units are not declared, so the
 * shared metric normalisation reads them.
 */
export function fallbackSummary(body: unknown): DashboardSummary {
  const empty = emptySummary();
  const parsed = dashboardFallbackSchema.safeParse(body);
  if (!parsed.success || parsed.data.matchedSites <= 0) return empty;
  const powerW = normalisedPowerW({ currentPower: parsed.data.totalCurrentPower });
  const todayWh = normalisedTodayWh({ todayGeneration: parsed.data.totalTodayGeneration });
  return {
    ...empty,
    systemCount: 1,
    totals: { ...empty.totals, systemCount: 1, todayWh, powerW },
    providers: empty.providers.map((row) =>
      row.provider === "solis" ? { ...row, systemCount: 1, powerW } : row,
    ),
  };
}

/**
 * GET /dashboard/summary; an unreadable answer is a fleet without systems. When the call fails
 * the debug endpoint stands in; a cancelled call is not a failure and is passed on as it is.
 */
export async function fetchDashboardSummary(signal?: AbortSignal): Promise<SummaryRead> {
  try {
    const parsed = dashboardSummarySchema.safeParse(await api.get("/dashboard/summary", { signal }));
    return { summary: parsed.success ? parsed.data : emptySummary(), fallback: false };
  } catch (error) {
    if (isCancellation(error)) throw error;
    console.error("Dashboard summary failed; trying /api/debug/dashboard-test", error);
    try {
      const body = await api.get("/debug/dashboard-test", { signal });
      return { summary: fallbackSummary(body), fallback: true };
    } catch (fallbackError) {
      console.error("Dashboard fallback failed", fallbackError);
      throw error;
    }
  }
}

/**
 * One retry, then a fleet without systems when neither call answers on the first load. A failed
 * refresh keeps the figures already shown. Either way the failure is flagged in the cache, so
 * the screen can say the data is unavailable rather than only "no sites".
 */
async function readSummary({ signal, client }: QueryFunctionContext): Promise<SummaryRead> {
  const state = client.getQueryState(dashboardKeys.summary());
  const failuresSoFar = state?.fetchFailureCount ?? 0;
  try {
    const read = await fetchDashboardSummary(signal);
    if (client.getQueryData(dashboardKeys.unavailable())) {
      client.setQueryData(dashboardKeys.unavailable(), null);
    }
    return read;
  } catch (error) {
    if (isCancellation(error)) throw error;
    if (failuresSoFar < METRICS_RETRIES && shouldRetryQuery(failuresSoFar, error)) throw error;
    if (!client.getQueryData(dashboardKeys.unavailable())) {
      client.setQueryData(dashboardKeys.unavailable(), Date.now());
    }
    if (state?.data !== undefined) throw error;
    return { summary: emptySummary(), fallback: false };
  }
}

/** Since when the fleet's figures could not be read (epoch ms), or null/undefined while they can. */
export function useFleetUnavailableSince(): number | null | undefined {
  return useQuery<number | null>({ queryKey: dashboardKeys.unavailable(), queryFn: skipToken }).data;
}

export const dashboardSummaryQueryOptions = () =>
  queryOptions({
    queryKey: dashboardKeys.summary(),
    queryFn: readSummary,
    refetchInterval: METRICS_REFETCH_MS,
    retry: retryOnce,
  });

/** A page read before a live message answered after it keeps the entries the socket made newer. */
function keepNewerPageEntries(previous: unknown, next: unknown): unknown {
  const before = previous as SystemsPage | undefined;
  const after = next as SystemsPage;
  if (!before?.items || !after?.items) return replaceEqualDeep(previous, next);
  return replaceEqualDeep(previous, { ...after, items: keepNewerEntries(before.items, after.items) });
}

/** GET /dashboard/systems: one page of the fleet, searched and sorted by the API. */
export const systemsPageQueryOptions = (query: SystemsPageQuery) =>
  queryOptions({
    queryKey: dashboardKeys.systems(query),
    queryFn: ({ signal }) =>
      api.get("/dashboard/systems", {
        query: {
          page: query.page,
          pageSize: query.pageSize,
          sort: query.sort,
          direction: query.direction,
          q: query.q || undefined,
          siteId: query.siteId || undefined,
        },
        signal,
      }),
    refetchInterval: METRICS_REFETCH_MS,
    retry: retryOnce,
    // The rows shown stay while the next page, order or search is read.
    placeholderData: keepPreviousData,
    structuralSharing: keepNewerPageEntries,
  });
