import type { DashboardMetric } from "../../../schema/api/metrics";
import type { Db } from "../../lib/db";
import {
  type FleetMetric,
  metricsFromRows,
  readIrradiation,
  todayIrradianceWindows,
} from "../../services/metrics";
import { readMetricRows } from "../data/reads";
import type { FleetDb } from "../db";

export interface FleetMetricsSnapshot {
  metrics: FleetMetric[];
  /** The dashboard metrics answer, serialised once. */
  json: string;
  /** The same, gzipped once when first asked for. */
  gzip?: Promise<Uint8Array>;
}

/** Every system's dashboard entry: the store's rows in two reads, today's irradiance from D1 in one. */
export async function buildFleetMetrics(store: FleetDb, d1: Db, now: number): Promise<FleetMetricsSnapshot> {
  const rows = readMetricRows(store);
  const irradiation = await readIrradiation(d1, todayIrradianceWindows(rows.systems, now));
  const metrics = metricsFromRows(rows, irradiation, now);
  return { metrics, json: JSON.stringify(metrics.map((m) => m.metric)) };
}

/** SPEC's fallback totals (the client's path when the metrics call fails); Meteronline is excluded. */
export function fallbackTotals(metrics: readonly FleetMetric[]) {
  const counted: DashboardMetric[] = metrics.map((m) => m.metric).filter((m) => m.provider !== "meteronline");
  return {
    matchedSites: new Set(counted.map((m) => m.siteId ?? m.systemId)).size,
    totalCurrentPower: counted.reduce((sum, m) => sum + (m.stale ? 0 : m.currentPowerW), 0),
    totalTodayGeneration: Math.round(counted.reduce((sum, m) => sum + m.todayGenerationWh, 0)) / 1000,
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
