import { METRICS_PAGE_SIZE } from "../../../schema/api/metrics";
import type { IrradianceWindow } from "../../data/irradiance";
import { DEFAULT_CALIBRATION } from "../../domain/solar/pv-model";
import { yieldTurn } from "../../lib/yield-turn";
import { countsInTotals, type FleetSummary, fleetSummary, liveSiteIds } from "./fleet-summary";
import type { MetricParts } from "./parts";
import {
  type FleetMetric,
  type IrradiationByDay,
  metricsFromRows,
  todayIrradianceWindows,
} from "./system-metrics";
import { type SystemsIndex, systemsIndex } from "./systems-page";

export interface FleetMetricsSnapshot {
  metrics: FleetMetric[];
  /** The dashboard metrics answer's pages, each serialised once as a JSON array (at least one, maybe `[]`). */
  pages: string[];
  /** The same pages gzipped, once, when the store builds the snapshot. */
  gzippedPages?: Uint8Array[];
  /** The fleet's totals, computed once from the same entries. */
  summary: FleetSummary;
  /** Sites with a live system, for the summary's count of active sites. */
  liveSiteIds: ReadonlySet<string>;
  /** The entries' orders for the paged systems list. */
  systems: SystemsIndex;
}

/** Reads the reference yield of irradiance windows (D1's hours through the one model). */
export type YieldReader = (windows: IrradianceWindow[]) => Promise<IrradiationByDay>;

/** The answer's order: by site (a system without one by its own name), then name, then id. */
function byListOrder(a: FleetMetric, b: FleetMetric): number {
  const left = a.metric;
  const right = b.metric;
  return (
    compareText(left.siteName ?? left.stationName, right.siteName ?? right.stationName) ||
    compareText(left.stationName, right.stationName) ||
    compareText(left.systemId, right.systemId)
  );
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every system's dashboard entry: the stores' rows a slice at a time (./parts.ts), today's
 * reference yield of each place from `readYields` (times each system's capacity and calibration);
 * then the entries of each slice, put in the answer's order, serialised a page at a time, totalled
 * and indexed, each step on its own turn.
 */
export async function buildFleetMetrics(
  { slices, calibrations }: MetricParts,
  now: number,
  readYields: YieldReader,
): Promise<FleetMetricsSnapshot> {
  const irradiation = await readYields(
    todayIrradianceWindows(
      slices.flatMap((slice) => slice.systems),
      now,
    ),
  );
  const learned = new Map(calibrations);
  const calibrationOf = (systemId: string) => learned.get(systemId) ?? DEFAULT_CALIBRATION;
  const metrics: FleetMetric[] = [];
  for (const slice of slices) {
    await yieldTurn();
    metrics.push(...metricsFromRows(slice, irradiation, now, calibrationOf));
  }
  await yieldTurn();
  metrics.sort(byListOrder);
  const entries = metrics.map((m) => m.metric);
  const pages: string[] = [];
  for (let first = 0; first < entries.length || first === 0; first += METRICS_PAGE_SIZE) {
    await yieldTurn();
    pages.push(JSON.stringify(entries.slice(first, first + METRICS_PAGE_SIZE)));
  }
  await yieldTurn();
  const summary = fleetSummary(entries, now);
  await yieldTurn();
  return {
    metrics,
    pages,
    summary,
    liveSiteIds: liveSiteIds(entries),
    systems: systemsIndex(entries),
  };
}

/** Every page's entries as one JSON array (the CSV export's input). */
export const wholeMetricsJson = (snapshot: FleetMetricsSnapshot) =>
  `[${snapshot.pages
    .map((page) => page.slice(1, -1))
    .filter(Boolean)
    .join(",")}]`;

/**
 * The fallback totals (the client's path when the dashboard's summary fails): the summary's
 * power and energy; matched sites count a system without a site as its own.
 */
export function fallbackTotals(snapshot: FleetMetricsSnapshot) {
  const counted = snapshot.metrics.map((m) => m.metric).filter(countsInTotals);
  return {
    matchedSites: new Set(counted.map((m) => m.siteId ?? m.systemId)).size,
    totalCurrentPower: snapshot.summary.totals.powerW,
    totalTodayGeneration: Math.round(snapshot.summary.totals.todayWh) / 1000,
  };
}

/** Today's energy and its irradiance-based expectation per site, over systems with an expectation. */
export function energyVsExpectedBySite(metrics: readonly FleetMetric[]) {
  const bySite: Record<string, { actualWh: number; expectedWh: number }> = {};
  for (const { metric } of metrics) {
    if (metric.siteId === null || metric.expectedTodayWh === null) continue;
    const totals = bySite[metric.siteId] ?? { actualWh: 0, expectedWh: 0 };
    totals.actualWh += metric.todayGenerationWh;
    totals.expectedWh += metric.expectedTodayWh;
    bySite[metric.siteId] = totals;
  }
  return bySite;
}
