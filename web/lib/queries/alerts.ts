import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AlertSeverity } from "../../../schema/domain";
import { api, routeUrl } from "../api";
import { getPage } from "./paged";

export type AlertStateFilter = "open" | "resolved" | "all";

export interface AlertFilters {
  state: AlertStateFilter;
  severity?: AlertSeverity;
  /** Most energy lost first (the Alerts screen's default) or newest first. */
  sort?: "lostEnergy" | "newest";
  /** Searched by the server: title, site, system, vendor id or device serial. */
  q?: string;
}

/** Everything about alerts lives under ['alerts'] (provider syncs invalidate that prefix). */
export const alertKeys = {
  all: ["alerts"] as const,
  lists: () => [...alertKeys.all, "list"] as const,
  list: (filters: AlertFilters) => [...alertKeys.lists(), filters] as const,
  summary: () => [...alertKeys.all, "summary"] as const,
};

/** The list's query for the filters (empty ones left out). */
export function alertsQuery(filters: AlertFilters) {
  return {
    state: filters.state,
    severity: filters.severity || undefined,
    sort: filters.sort || undefined,
    q: filters.q || undefined,
  };
}

/** The list's path for the filters (the CSV export adds format=csv to it). */
export function alertsPath(filters: AlertFilters): string {
  return routeUrl("/alerts", {}, alertsQuery(filters));
}

/** Alerts per page of the Alerts screen. */
export const ALERTS_PER_PAGE = 25;

/** A page of the Alerts screen's list, with how many match in all (X-Total-Count). */
export const alertsPageQueryOptions = (filters: AlertFilters, page: number) =>
  queryOptions({
    queryKey: [...alertKeys.lists(), "page", filters, page] as const,
    queryFn: ({ signal }) =>
      getPage("/alerts", { query: { ...alertsQuery(filters), page, pageSize: ALERTS_PER_PAGE }, signal }),
    placeholderData: keepPreviousData,
  });

/** The Alerts screen's URL search: its filters and page, kept on reload and shared as a link. */
export type AlertsSearch = AlertFilters & { page?: number };

/** Reads the URL's search: unknown keys and values are dropped; open, most energy lost first by default. */
export function validateAlertsSearch(search: Record<string, unknown>): AlertsSearch {
  const state = ["open", "resolved", "all"].includes(String(search.state))
    ? (search.state as AlertStateFilter)
    : "open";
  const severity = ["critical", "warning", "info"].includes(String(search.severity))
    ? (search.severity as AlertSeverity)
    : undefined;
  const sort = search.sort === "newest" ? "newest" : "lostEnergy";
  const q = typeof search.q === "string" && search.q.trim() ? search.q.trim().slice(0, 100) : undefined;
  const page = Number(search.page);
  return {
    state,
    sort,
    ...(severity ? { severity } : {}),
    ...(q ? { q } : {}),
    ...(Number.isInteger(page) && page > 1 ? { page } : {}),
  };
}

export const alertsQueryOptions = (filters: AlertFilters) =>
  queryOptions({
    queryKey: alertKeys.list(filters),
    queryFn: async ({ signal }) => {
      const alerts = await api.get("/alerts", { query: alertsQuery(filters), signal });
      return Array.isArray(alerts) ? alerts : [];
    },
    placeholderData: keepPreviousData,
  });

export const alertSummaryQueryOptions = () =>
  queryOptions({
    queryKey: alertKeys.summary(),
    queryFn: ({ signal }) => api.get("/alerts/summary", { signal }),
  });

/** Unresolved alerts for the sidebar badge and the bell (undefined while unknown). */
export function useOpenAlertCount(enabled = true): number | undefined {
  return useQuery({ ...alertSummaryQueryOptions(), enabled, select: (summary) => summary.open }).data;
}

export function useResolveAlertMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ alertId, resolved }: { alertId: string; resolved: boolean }) =>
      api.patch("/alerts/:id", { param: { id: alertId }, json: { resolved } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.all }),
  });
}

/** Acknowledge (with an optional note) or assign (a member's id, or null): both answer the alert. */
export function useAlertActionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      action:
        | { kind: "acknowledge"; alertId: string; note?: string }
        | { kind: "assign"; alertId: string; userId: string | null },
    ) =>
      action.kind === "acknowledge"
        ? api.post("/alerts/:id/acknowledge", {
            param: { id: action.alertId },
            json: action.note ? { note: action.note } : {},
          })
        : api.post("/alerts/:id/assign", { param: { id: action.alertId }, json: { userId: action.userId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.all }),
  });
}
