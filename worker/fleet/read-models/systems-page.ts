import type { SystemSortKey, SystemsPage, SystemsPageQuery } from "../../../schema/api/dashboard";
import { type DashboardMetric, inverterCounts, systemName } from "../../../schema/api/metrics";
import { sortedPositions } from "./ordering";

/*
 * The dashboard's systems list, a page at a time, from the read model's entries. Orders are
 * computed once per read model and sort key, so a page of a 20,000-system fleet is a slice.
 */

const statusRank: Record<DashboardMetric["status"], number> = { fault: 0, stale: 1, offline: 2, online: 3 };

/** Names compare in a language-aware, case-insensitive way ("émile" between "e" and "f"). */
const names = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/** What a key sorts by; null (a stale system's power, an unknown PR) sorts last in either direction. */
function sortValue(metric: DashboardMetric, key: Exclude<SystemSortKey, "system">): number | string | null {
  switch (key) {
    case "provider":
      return metric.provider;
    case "power":
      return metric.stale ? null : metric.currentPowerW;
    case "today":
      return metric.todayGenerationWh;
    case "status":
      return statusRank[metric.status];
    case "inverters":
      return inverterCounts(metric).online;
    case "pr":
      return metric.performanceRatio;
  }
}

export interface SystemsIndex {
  metrics: readonly DashboardMetric[];
  /** Each entry's position by name (ties by system id): the order of `system` and every tie-break. */
  nameRank: Int32Array;
  /** Entry positions in each key's ascending order, built when first asked for. */
  orders: Map<string, Int32Array>;
  /** Lower-cased name, site name and vendor id per entry, built when first searched. */
  searchText: string[] | null;
}

export function systemsIndex(metrics: readonly DashboardMetric[]): SystemsIndex {
  const byName = metrics.map((_, i) => i);
  const keys = metrics.map((metric) => systemName(metric));
  byName.sort(
    (a, b) =>
      names.compare(keys[a] as string, keys[b] as string) ||
      ((metrics[a] as DashboardMetric).systemId < (metrics[b] as DashboardMetric).systemId ? -1 : 1),
  );
  const nameRank = new Int32Array(metrics.length);
  byName.forEach((entry, position) => {
    nameRank[entry] = position;
  });
  const index: SystemsIndex = { metrics, nameRank, orders: new Map(), searchText: null };
  // The dashboard's first order is sorted with the model (in the background for a large fleet).
  orderOf(index, "pr", "asc");
  return index;
}

/**
 * Entry positions sorted by key and direction: a total order (ties by name, then id), so pages
 * never overlap or skip an entry while the read model is unchanged.
 */
export function orderOf(index: SystemsIndex, key: SystemSortKey, direction: "asc" | "desc"): Int32Array {
  const name = `${key}|${direction}`;
  const cached = index.orders.get(name);
  if (cached) return cached;
  const positions = sortedPositions(
    index.metrics,
    index.nameRank,
    key === "system" ? null : (metric) => sortValue(metric, key),
    direction,
  );
  index.orders.set(name, positions);
  return positions;
}

export function searchTextOf(index: SystemsIndex): string[] {
  index.searchText ??= index.metrics.map((metric) =>
    [systemName(metric), metric.siteName ?? "", metric.providerId].join("\u0000").toLocaleLowerCase(),
  );
  return index.searchText;
}

export function systemsPage(index: SystemsIndex, query: SystemsPageQuery): SystemsPage {
  const order = orderOf(index, query.sort, query.direction);
  const needle = query.q.toLocaleLowerCase();
  let matching: ArrayLike<number> = order;
  if (needle || query.siteId !== undefined) {
    // A plain loop: the total needs every match counted, and this is the path a search takes per call.
    const text = needle ? searchTextOf(index) : null;
    const found: number[] = [];
    for (let i = 0; i < order.length; i++) {
      const entry = order[i] as number;
      if (query.siteId !== undefined && index.metrics[entry]?.siteId !== query.siteId) continue;
      if (text && !(text[entry] as string).includes(needle)) continue;
      found.push(entry);
    }
    matching = found;
  }
  const start = (query.page - 1) * query.pageSize;
  const end = Math.min(matching.length, start + query.pageSize);
  const items: DashboardMetric[] = [];
  for (let i = start; i < end; i++) items.push(index.metrics[matching[i] as number] as DashboardMetric);
  return { items, page: query.page, pageSize: query.pageSize, total: matching.length };
}
