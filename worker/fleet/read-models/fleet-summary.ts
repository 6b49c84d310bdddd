import {
  type DashboardSummary,
  type FleetTotals,
  type SiteCounts,
  summaryProviders,
} from "../../../schema/api/dashboard";
import { type DashboardMetric, hasCapacity } from "../../../schema/api/metrics";
import { isOutdated } from "../../domain/fleet-rules";

/*
 * The fleet's totals, defined here once: the dashboard's cards and provider breakdown, the
 * analytics summary and the fallback totals all show what this computes.
 */

/** Meteronline (imports of another portal's exports) stays out of every total. */
export const countsInTotals = (metric: Pick<DashboardMetric, "provider">) =>
  metric.provider !== "meteronline";

/**
 * A system is live when it is online with fresh data, or in fault (the vendor reports it). A site is
 * live when one of its systems is: the site list's status other than offline (services/sites.ts).
 */
export const isLive = (metric: Pick<DashboardMetric, "status" | "stale">) =>
  metric.status === "fault" || (metric.status === "online" && !metric.stale);

/** The sites with a live system (every provider's, meteronline's too: a site is one place). */
export function liveSiteIds(metrics: readonly DashboardMetric[]): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const metric of metrics) if (metric.siteId && isLive(metric)) ids.add(metric.siteId);
  return ids;
}

/** D1's side of the site counts: how many sites the organisation has, and those marked inactive. */
export interface SiteRoster {
  count: number;
  inactiveIds: string[];
}

/** The active sites: live ones not marked inactive. */
export function siteCounts(live: ReadonlySet<string>, roster: SiteRoster): SiteCounts {
  const inactive = new Set(roster.inactiveIds);
  let activeCount = 0;
  for (const id of live) if (!inactive.has(id)) activeCount++;
  return { count: roster.count, activeCount: Math.min(activeCount, roster.count) };
}

/** The summary without its site counts: those join D1's sites (their active flag) at each request. */
export type FleetSummary = Omit<DashboardSummary, "sites">;

/**
 * Power counts only while the data is fresh: an outdated value is not the output now, in daylight
 * (stale) or at night (a plant silent since yesterday afternoon must not add its 14:00 power to the
 * fleet's at midnight).
 */
export const livePowerW = (
  metric: Pick<DashboardMetric, "stale" | "dataTime" | "currentPowerW">,
  now: number,
) =>
  metric.stale || metric.dataTime === null || isOutdated(Date.parse(metric.dataTime), now)
    ? 0
    : metric.currentPowerW;

function fleetTotals(included: readonly DashboardMetric[], now: number): FleetTotals {
  let todayWh = 0;
  let powerW = 0;
  let capacityKw = 0;
  let ratedEfficiencySum = 0;
  let rated = 0;
  let actualWh = 0;
  let expectedWh = 0;
  let dataTimeMs: number | null = null;
  for (const metric of included) {
    const livePower = livePowerW(metric, now);
    todayWh += metric.todayGenerationWh;
    powerW += livePower;
    capacityKw += metric.capacity;
    if (hasCapacity(metric)) {
      // Of the power the fleet's total counts: an outdated value is no system's efficiency now.
      ratedEfficiencySum += livePower === 0 ? 0 : metric.efficiency;
      rated++;
    }
    // PR over the systems with an expectation only, so one without irradiance does not lower it.
    if (metric.expectedTodayWh !== null && metric.expectedTodayWh > 0) {
      actualWh += metric.todayGenerationWh;
      expectedWh += metric.expectedTodayWh;
    }
    const time = metric.dataTime === null ? Number.NaN : Date.parse(metric.dataTime);
    if (Number.isFinite(time) && (dataTimeMs === null || time > dataTimeMs)) dataTimeMs = time;
  }
  return {
    systemCount: included.length,
    todayWh,
    powerW,
    capacityKw,
    meanEfficiencyPercent: rated === 0 ? null : ratedEfficiencySum / rated,
    performanceRatio: expectedWh > 0 ? actualWh / expectedWh : null,
    dataTime: dataTimeMs === null ? null : new Date(dataTimeMs).toISOString(),
  };
}

/** The summary of a fleet's entries (read model order), built once per read model. */
export function fleetSummary(metrics: readonly DashboardMetric[], builtAt: number): FleetSummary {
  const included = metrics.filter(countsInTotals);
  // One pass over the fleet for every provider's totals.
  const byProvider = new Map<
    string,
    { sites: Set<string>; systemCount: number; capacityKw: number; powerW: number }
  >();
  for (const metric of included) {
    let totals = byProvider.get(metric.provider);
    if (!totals) {
      totals = { sites: new Set(), systemCount: 0, capacityKw: 0, powerW: 0 };
      byProvider.set(metric.provider, totals);
    }
    if (metric.siteId) totals.sites.add(metric.siteId);
    totals.systemCount++;
    totals.capacityKw += metric.capacity;
    totals.powerW += livePowerW(metric, builtAt);
  }
  const located = metrics.find(
    (metric) => metric.location.latitude !== null && metric.location.longitude !== null,
  );
  return {
    generatedAt: new Date(builtAt).toISOString(),
    systemCount: metrics.length,
    excludedSystemCount: metrics.length - included.length,
    totals: fleetTotals(included, builtAt),
    providers: summaryProviders.map((provider) => {
      const totals = byProvider.get(provider);
      return {
        provider,
        siteCount: totals?.sites.size ?? 0,
        systemCount: totals?.systemCount ?? 0,
        capacityKw: totals?.capacityKw ?? 0,
        powerW: totals?.powerW ?? 0,
      };
    }),
    weatherPlace:
      located && located.location.latitude !== null && located.location.longitude !== null
        ? {
            latitude: located.location.latitude,
            longitude: located.location.longitude,
            name: located.siteName ?? located.stationName,
          }
        : null,
  };
}
