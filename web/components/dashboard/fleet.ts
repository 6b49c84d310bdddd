import type { DashboardMetric } from "../../../schema/api/metrics";
import type { ProviderId } from "../../../schema/api/providers";

/** The provider breakdown covers these four; meteronline stays out of totals. */
export const summaryProviders = ["solis", "sma", "solax", "fronius"] as const satisfies readonly ProviderId[];

export const countsInTotals = (metric: Pick<DashboardMetric, "provider">) =>
  metric.provider !== "meteronline";

/** Power counts only while the data is fresh: a stale system's last value is not its output now. */
export const livePowerW = (metric: Pick<DashboardMetric, "stale" | "currentPowerW">) =>
  metric.stale ? 0 : metric.currentPowerW;

export interface FleetTotals {
  systemCount: number;
  todayWh: number;
  powerW: number;
  capacityKw: number;
  /** Mean of the included systems' efficiency (%), null without systems. */
  meanEfficiency: number | null;
  /** Today's actual over expected energy across systems with an expectation, null without one. */
  performanceRatio: number | null;
  /** The newest data time among the included systems (epoch ms), null before any data. */
  dataTimeMs: number | null;
}

/** A system without a known capacity (SolaX's token API gives none) has no efficiency, not 0 %. */
export const hasCapacity = (metric: Pick<DashboardMetric, "capacity">) => metric.capacity > 0;

function meanEfficiency(metrics: readonly DashboardMetric[]): number | null {
  const rated = metrics.filter(hasCapacity);
  return rated.length === 0 ? null : rated.reduce((sum, metric) => sum + metric.efficiency, 0) / rated.length;
}

export function fleetTotals(metrics: readonly DashboardMetric[]): FleetTotals {
  const included = metrics.filter(countsInTotals);
  let actualWh = 0;
  let expectedWh = 0;
  let dataTimeMs: number | null = null;
  for (const metric of included) {
    if (metric.expectedTodayWh !== null && metric.expectedTodayWh > 0) {
      actualWh += metric.todayGenerationWh;
      expectedWh += metric.expectedTodayWh;
    }
    const time = metric.dataTime === null ? Number.NaN : Date.parse(metric.dataTime);
    if (Number.isFinite(time) && (dataTimeMs === null || time > dataTimeMs)) dataTimeMs = time;
  }
  return {
    systemCount: included.length,
    todayWh: included.reduce((sum, metric) => sum + metric.todayGenerationWh, 0),
    powerW: included.reduce((sum, metric) => sum + livePowerW(metric), 0),
    capacityKw: included.reduce((sum, metric) => sum + metric.capacity, 0),
    meanEfficiency: meanEfficiency(included),
    performanceRatio: expectedWh > 0 ? actualWh / expectedWh : null,
    dataTimeMs,
  };
}

export interface ProviderTotals {
  provider: (typeof summaryProviders)[number];
  siteCount: number;
  systemCount: number;
  capacityKw: number;
  powerW: number;
}

export function providerTotals(metrics: readonly DashboardMetric[]): ProviderTotals[] {
  return summaryProviders.map((provider) => {
    const systems = metrics.filter((metric) => metric.provider === provider);
    return {
      provider,
      siteCount: new Set(systems.flatMap((metric) => (metric.siteId ? [metric.siteId] : []))).size,
      systemCount: systems.length,
      capacityKw: systems.reduce((sum, metric) => sum + metric.capacity, 0),
      powerW: systems.reduce((sum, metric) => sum + livePowerW(metric), 0),
    };
  });
}

export function inverterCounts(metric: Pick<DashboardMetric, "inverters">): {
  online: number;
  total: number;
} {
  return {
    online: metric.inverters.filter((inverter) => inverter.state === 1).length,
    total: metric.inverters.length,
  };
}

export type SystemSortKey = "system" | "provider" | "power" | "today" | "status" | "inverters" | "pr";
export type SortDirection = "asc" | "desc";

const statusRank: Record<DashboardMetric["status"], number> = { fault: 0, stale: 1, offline: 2, online: 3 };

const systemName = (metric: DashboardMetric) => metric.stationName || metric.siteName || metric.systemId;

/** A number to sort by; null sorts last whichever the direction (an unknown PR is not "worst"). */
function sortValue(metric: DashboardMetric, key: SystemSortKey): number | string | null {
  switch (key) {
    case "system":
      return systemName(metric).toLocaleLowerCase();
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

export function sortSystems(
  metrics: readonly DashboardMetric[],
  key: SystemSortKey,
  direction: SortDirection,
): DashboardMetric[] {
  const sign = direction === "asc" ? 1 : -1;
  return [...metrics].sort((a, b) => {
    const left = sortValue(a, key);
    const right = sortValue(b, key);
    if (left === null || right === null) {
      if (left === right) return systemName(a).localeCompare(systemName(b));
      return left === null ? 1 : -1;
    }
    const order =
      typeof left === "string" || typeof right === "string"
        ? String(left).localeCompare(String(right))
        : left - right;
    return order === 0 ? systemName(a).localeCompare(systemName(b)) : order * sign;
  });
}

export { systemName };
