import type { AnalyticsQuery, AnalyticsRecord } from "../../../schema/api/analytics";
import type { DashboardMetric } from "../../../schema/api/metrics";
import { toRecord } from "./analytics";
import { orderOf, type SystemsIndex, searchTextOf } from "./systems-page";

/** A page of `system=all` analytics records, with the paging the answer's headers carry. */
export interface AnalyticsPage {
  items: AnalyticsRecord[];
  page: number;
  pageCount: number;
  total: number;
}

/**
 * One page of the fleet's analytics records from the dashboard's read model: searched, filtered
 * by provider, status and site, in the list's order (by site, then name) or a sort key's.
 */
export function analyticsPage(index: SystemsIndex, query: AnalyticsQuery): AnalyticsPage {
  const { metrics } = index;
  const order: ArrayLike<number> = query.sort
    ? orderOf(index, query.sort, query.direction)
    : Int32Array.from(metrics, (_, i) => (query.direction === "desc" ? metrics.length - 1 - i : i));
  const needle = query.q.toLocaleLowerCase();
  const text = needle ? searchTextOf(index) : null;
  const filtered = needle || query.provider || query.status || query.siteId;
  let positions: ArrayLike<number> = order;
  if (filtered) {
    const found: number[] = [];
    for (let i = 0; i < order.length; i++) {
      const position = order[i] as number;
      const metric = metrics[position] as DashboardMetric;
      if (query.provider && metric.provider !== query.provider) continue;
      if (query.status && metric.status !== query.status) continue;
      if (query.siteId && metric.siteId !== query.siteId) continue;
      if (text && !(text[position] as string).includes(needle)) continue;
      found.push(position);
    }
    positions = found;
  }
  const start = (query.page - 1) * query.pageSize;
  const end = Math.min(positions.length, start + query.pageSize);
  const items: AnalyticsRecord[] = [];
  for (let i = start; i < end; i++) items.push(toRecord(metrics[positions[i] as number] as DashboardMetric));
  return {
    items,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(positions.length / query.pageSize)),
    total: positions.length,
  };
}
