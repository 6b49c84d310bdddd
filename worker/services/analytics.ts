import type { AnalyticsQuery, AnalyticsRecord } from "../../schema/api/analytics";
import type { DashboardMetric } from "../../schema/api/metrics";
import { dailyEnergy, hourlyPower, powerReadings } from "../data/analytics";
import { sumIrradiance } from "../data/metrics";
import { expectedEnergyWh, performanceRatio } from "../lib/energy/expected";
import { lastLocalDays } from "../lib/energy/local-day";
import { notFound } from "../lib/errors";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";
import { metricsWithLocations } from "./metrics";

const RANGE_DAYS = { "24h": 2, "7d": 7, "30d": 30, "1y": 365 } as const;
const RANGE_MS = {
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
  "1y": 365 * 86_400_000,
} as const;

function toRecord(m: DashboardMetric): AnalyticsRecord {
  return {
    provider: m.provider,
    stationName: m.stationName,
    systemName: m.stationName,
    siteName: m.siteName,
    systemId: m.systemId,
    siteId: m.siteId,
    id: m.systemId,
    providerId: m.providerId,
    currentPowerW: m.currentPowerW,
    todayGenerationWh: m.todayGenerationWh,
    capacity: m.capacity,
    efficiency: m.efficiency,
    performanceRatio: m.performanceRatio,
    state: m.state,
    status: m.status,
    inverterCount: m.inverters.length,
    inverterStates: m.inverters.map((inv) => ({
      sn: inv.sn,
      state: inv.state,
      pac: inv.pac,
      etodayKWh: inv.energyWh / 1000,
      inverterTemperature: inv.temperatureC,
    })),
    location: m.location,
    timezone: m.timezone,
    lastUpdated: m.dataTime,
    error: null,
  };
}

/**
 * SPEC's analytics records. For one system the record carries real series over the range:
 * power, and energy per plant-local day next to the energy expected from measured irradiance.
 */
export async function analytics(ctx: UserContext, query: AnalyticsQuery): Promise<AnalyticsRecord[]> {
  const org = authorizeOrgAction(ctx, "org:read");
  const metrics = await metricsWithLocations(org, query.system === "all" ? undefined : query.system);
  if (query.system === "all") return metrics.map((m) => toRecord(m.metric));
  const found = metrics.find((m) => m.metric.systemId === query.system || m.metric.siteId === query.system);
  if (!found) throw notFound("System");
  const { metric, locationKey: key } = found;
  const now = org.now;
  const from = now - RANGE_MS[query.range];
  const rawPower =
    query.range === "24h" || query.range === "7d"
      ? await powerReadings(org.db, metric.systemId, from, now)
      : query.range === "30d"
        ? await hourlyPower(org.db, metric.systemId, from, now)
        : [];
  const days = lastLocalDays(now, metric.timezone, RANGE_DAYS[query.range]);
  const first = days[0]?.date ?? "";
  const last = days[days.length - 1]?.date ?? "";
  const energyRows = await dailyEnergy(org.db, metric.systemId, first, last);
  const energyByDate = new Map(energyRows.map((r) => [r.date, r]));
  const irradiation = key
    ? new Map(
        (
          await sumIrradiance(
            org.db,
            days.map((d) => ({ key, start: d.startMs, end: Math.min(d.endMs, now) })),
          )
        ).map((r) => [r.start, r.wh_m2]),
      )
    : new Map<number, number>();
  const capacityW = metric.capacity * 1000;
  const energy = days.map((day) => {
    const energyWh = energyByDate.get(day.date)?.energy_wh ?? null;
    const whPerM2 = irradiation.get(day.startMs);
    const expectedWh = whPerM2 === undefined ? null : expectedEnergyWh(capacityW, [whPerM2]);
    return {
      date: day.date,
      energyWh,
      expectedWh,
      performanceRatio:
        energyWh === null || expectedWh === null ? null : performanceRatio(energyWh, expectedWh),
    };
  });
  const power =
    query.range === "1y"
      ? energyRows.map((r) => ({ time: `${r.date}T12:00:00.000Z`, powerW: r.peak_power_w }))
      : rawPower.map((r) => ({ time: new Date(r.time).toISOString(), powerW: r.power_w }));
  return [{ ...toRecord(metric), series: { range: query.range, power, energy } }];
}
