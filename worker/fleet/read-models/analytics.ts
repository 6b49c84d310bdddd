import type { AnalyticsRange, AnalyticsRecord } from "../../../schema/api/analytics";
import type { DashboardMetric } from "../../../schema/api/metrics";
import type { IrradianceWindow } from "../../data/irradiance";
import { lastLocalDays } from "../../domain/energy/local-day";
import { DEFAULT_CALIBRATION, performanceRatio } from "../../domain/solar/pv-model";
import { calibrations } from "../data/models";
import { dailyEnergy, hourlyPower, powerReadings, readMetricRows } from "../data/reads";
import type { FleetDb } from "../db";
import {
  expectedFromYield,
  type IrradiationByDay,
  irradiationKey,
  metricsFromRows,
  todayWindows,
  todayYield,
} from "./system-metrics";

const RANGE_DAYS = { "24h": 2, "7d": 7, "30d": 30, "1y": 365 } as const;
const RANGE_MS = {
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
  "1y": 365 * 86_400_000,
} as const;

export function toRecord(m: DashboardMetric): AnalyticsRecord {
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

/** Where a range of minute-level series ends: now, or the last data of a plant silent for longer than the range. */
function silentUntil(dataTimeMs: number | null, range: AnalyticsRange, now: number): number {
  if (range !== "24h" && range !== "7d") return now;
  if (dataTimeMs === null || dataTimeMs >= now - RANGE_MS[range]) return now;
  return dataTimeMs;
}

/**
 * One system (or a site's first system) with its series: the store's rows by key, then the
 * irradiance of its days from D1 in one query.
 */
export async function buildSystemAnalytics(
  store: FleetDb,
  systemId: string,
  range: AnalyticsRange,
  now: number,
  /** Each window's reference yield (Wh per kW) from D1's weather hours (readIrradiation, or held). */
  readYields: (windows: IrradianceWindow[]) => Promise<IrradiationByDay>,
): Promise<AnalyticsRecord | null> {
  const rows = readMetricRows(store, systemId);
  const row = rows.systems.find((r) => r.id === systemId || r.site_id === systemId);
  if (!row) return null;
  // A plant gone silent for longer than the range shows the range up to its last data, so the
  // hours before it went quiet stay in view (its state says since when); others end now.
  const until = silentUntil(row.data_time, range, now);
  const from = until - RANGE_MS[range];
  const days = lastLocalDays(until, row.timezone, RANGE_DAYS[range]);
  const first = days[0]?.date ?? "";
  const last = days[days.length - 1]?.date ?? "";
  const key = row.location_key;
  // Asked of D1 first, so the store's reads below run while it answers. The days end with today
  // (its windows as the metrics take them), so they also give the metric's today expectation.
  const today = days.at(-1);
  const irradiationRead = readYields(
    key
      ? days.flatMap((d) =>
          d === today && d.endMs > now
            ? todayWindows(key, d, now)
            : [{ key, start: d.startMs, end: d.endMs }],
        )
      : [],
  );
  // Awaited below; marked handled now so that, if a store read throws first, a failed D1 read is
  // not also reported as an unhandled rejection.
  irradiationRead.catch(() => undefined);
  const rawPower =
    range === "24h" || range === "7d"
      ? powerReadings(store, row.id, from, until)
      : range === "30d"
        ? hourlyPower(store, row.id, from, until)
        : [];
  const energyRows = dailyEnergy(store, row.id, first, last);
  const irradiation = await irradiationRead;
  const calibration = calibrations(store, [row.id]).get(row.id) ?? DEFAULT_CALIBRATION;
  const metric = metricsFromRows(
    { systems: [row], inverters: rows.inverters.filter((inv) => inv.system_id === row.id) },
    irradiation,
    now,
    () => calibration,
  )[0]?.metric;
  if (!metric) return null;
  const energyByDate = new Map(energyRows.map((r) => [r.date, r]));
  const capacityW = metric.capacity * 1000;
  const energy = days.map((day) => {
    const energyWh = energyByDate.get(day.date)?.energy_wh ?? null;
    const whPerKw = !key
      ? undefined
      : day === today && day.endMs > now
        ? todayYield(irradiation, key, day, now)
        : irradiation.get(irradiationKey(key, day.startMs));
    const expectedWh = whPerKw === undefined ? null : expectedFromYield(capacityW, calibration, whPerKw);
    return {
      date: day.date,
      energyWh,
      expectedWh,
      performanceRatio:
        energyWh === null || expectedWh === null ? null : performanceRatio(energyWh, expectedWh),
    };
  });
  const power =
    range === "1y"
      ? energyRows.map((r) => ({ time: `${r.date}T12:00:00.000Z`, powerW: r.peak_power_w }))
      : rawPower.map((r) => ({ time: new Date(r.time).toISOString(), powerW: r.power_w }));
  return { ...toRecord(metric), series: { range, power, energy } };
}
