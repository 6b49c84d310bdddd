import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { AuditPage } from "../../../schema/api/audit";
import { api } from "../api";

export interface AuditFilters {
  action?: string;
  actorEmail?: string;
  /** ISO instants. */
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

export const auditKeys = {
  all: ["admin", "logs"] as const,
  page: (filters: AuditFilters) => [...auditKeys.all, filters] as const,
};

export function auditSearchParams(filters: AuditFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  return params.toString();
}

export const auditLogsQueryOptions = (filters: AuditFilters) =>
  queryOptions({
    queryKey: auditKeys.page(filters),
    queryFn: ({ signal }) => api.get<AuditPage>(`/admin/logs?${auditSearchParams(filters)}`, { signal }),
    // Keeps the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
