import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { AnalyticsQuery } from "../../../schema/api/analytics";
import { ApiRequestError, api } from "../api";
import { shouldRetryQuery } from "../query-client";
import { getPage } from "./paged";

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

/** GET /api/analytics?system=all: one record per system, without series. */
export const analyticsListQueryOptions = (range: AnalyticsRange = LIST_RANGE) =>
  queryOptions({
    queryKey: analyticsKeys.list(range),
    queryFn: ({ signal }) => api.get("/analytics", { query: { system: "all", range }, signal }),
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
    queryFn: ({ signal }) => api.get("/analytics", { query: { system: systemId, range }, signal }),
    retry: retryUnlessNotFound,
  });

/** The Analytics list's URL search: what it shows, kept on reload and shared as a link. */
export interface AnalyticsListSearch {
  q?: string;
  provider?: string;
  status?: "online" | "offline" | "fault" | "stale";
  /** Worst PR first unless chosen otherwise. */
  sort?: "pr" | "power" | "today" | "system";
  page?: number;
}

export const ANALYTICS_STATUSES = ["fault", "offline", "stale", "online"] as const;
export const ANALYTICS_SORTS = ["pr", "power", "today", "system"] as const;
/** Systems per page of the Analytics list. */
export const ANALYTICS_PER_PAGE = 30;

const pick = <T extends string>(values: readonly T[], value: unknown) =>
  typeof value === "string" && (values as readonly string[]).includes(value) ? (value as T) : undefined;

/** Reads the URL's search: unknown keys and values are dropped. */
export function validateAnalyticsSearch(search: Record<string, unknown>): AnalyticsListSearch {
  const page = Number(search.page);
  const found: AnalyticsListSearch = {
    q: typeof search.q === "string" && search.q.trim() ? search.q.trim().slice(0, 100) : undefined,
    provider:
      typeof search.provider === "string" && search.provider ? search.provider.slice(0, 40) : undefined,
    status: pick(ANALYTICS_STATUSES, search.status),
    sort: pick(ANALYTICS_SORTS, search.sort),
    page: Number.isInteger(page) && page > 1 ? page : undefined,
  };
  return Object.fromEntries(Object.entries(found).filter(([, v]) => v !== undefined)) as AnalyticsListSearch;
}

function listQuery(search: AnalyticsListSearch, range: AnalyticsRange) {
  return {
    system: "all",
    range,
    q: search.q || undefined,
    // A provider the server does not know is refused there (400).
    provider: (search.provider || undefined) as AnalyticsQuery["provider"],
    status: search.status,
  };
}

/** GET /api/analytics?system=all a page at a time, searched, filtered and sorted by the server. */
export const analyticsPageQueryOptions = (
  search: AnalyticsListSearch,
  range: AnalyticsRange = LIST_RANGE,
) => {
  const query = {
    ...listQuery(search, range),
    sort: search.sort ?? "pr",
    // Worst first: the lowest PR, power and energy; names A to Z.
    direction: "asc" as const,
    page: search.page ?? 1,
    pageSize: ANALYTICS_PER_PAGE,
  };
  return queryOptions({
    queryKey: [...analyticsKeys.all, "page", query] as const,
    queryFn: ({ signal }) => getPage("/analytics", { query, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
};

/**
 * How many systems match the search per status and per provider (each count a one-record page's
 * X-Total-Count), for the chips above the list.
 */
export const analyticsCountsQueryOptions = (
  search: Pick<AnalyticsListSearch, "q">,
  providers: readonly string[],
) =>
  queryOptions({
    queryKey: [...analyticsKeys.all, "counts", search.q ?? "", providers.join(",")] as const,
    queryFn: async ({ signal }) => {
      const count = async (extra: Pick<AnalyticsListSearch, "status" | "provider">) => {
        const query = { ...listQuery({ q: search.q, ...extra }, LIST_RANGE), pageSize: 1 };
        return (await getPage("/analytics", { query, signal })).total;
      };
      const [all, ...rest] = await Promise.all([
        count({}),
        ...ANALYTICS_STATUSES.map((status) => count({ status })),
        ...providers.map((provider) => count({ provider })),
      ]);
      const statuses = Object.fromEntries(ANALYTICS_STATUSES.map((status, i) => [status, rest[i] ?? 0]));
      const byProvider = Object.fromEntries(
        providers.map((provider, i) => [provider, rest[ANALYTICS_STATUSES.length + i] ?? 0]),
      );
      return { all: all ?? 0, statuses, providers: byProvider };
    },
    placeholderData: keepPreviousData,
    retry: false,
  });
