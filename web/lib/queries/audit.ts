import { keepPreviousData, queryOptions } from "@tanstack/react-query";
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

/** The filters as the log's query: empty ones left out. */
export function auditQuery(filters: AuditFilters): AuditFilters {
  return Object.fromEntries(
    Object.entries(filters).filter(([, value]) => value !== undefined && value !== ""),
  ) as AuditFilters;
}

export function auditSearchParams(filters: AuditFilters): string {
  return new URLSearchParams(
    Object.entries(auditQuery(filters)).map(([key, value]) => [key, String(value)]),
  ).toString();
}

export const auditLogsQueryOptions = (filters: AuditFilters) =>
  queryOptions({
    queryKey: auditKeys.page(filters),
    queryFn: ({ signal }) => api.get("/admin/logs", { query: auditQuery(filters), signal }),
    // Keeps the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
