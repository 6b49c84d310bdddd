import type { DashboardMetric } from "../../../schema/api/metrics";
import type { ProviderId } from "../../../schema/api/providers";
import { metricReadings } from "../../../schema/metric-readings";
import { type IrradianceWindow, weatherInWindows } from "../../data/irradiance";
import { HOUR_MS, type LocalDay, localDayOf } from "../../domain/energy/local-day";
import { isStale } from "../../domain/fleet-rules";
import { DEFAULT_CALIBRATION, performanceRatio } from "../../domain/solar/pv-model";
import { placeOfKey, referenceWhPerKw } from "../../domain/solar/reference-yield";
import { stateNumber } from "../../domain/system-state";
import type { Db } from "../../lib/db";
import type { InverterMetricRow, MetricRows, SystemMetricRow } from "../data/reads";

/** Today's energy counts only if the vendor's counter is from today in the system's own zone. */
function energyTodayWh(row: SystemMetricRow, today: { startMs: number; endMs: number }): number {
  if (row.data_time === null || row.energy_today_wh === null) return 0;
  return row.data_time >= today.startMs && row.data_time < today.endMs ? row.energy_today_wh : 0;
}

export interface FleetMetric {
  metric: DashboardMetric;
  /** The system's irradiance location key (the same rounding as stored irradiance rows). */
  locationKey: string | null;
}

/**
 * Reference yield (the one model's expected Wh per kW of DC at calibration 1, domain/solar/
 * reference-yield.ts) per location and local-day window, keyed `${locationKey}|${dayStartMs}`.
 */
export type IrradiationByDay = Map<string, number>;

/** Each system's calibration (what its days taught; PVWatts' until then). */
export type CalibrationOf = (systemId: string) => number;
export const defaultCalibration: CalibrationOf = () => DEFAULT_CALIBRATION;

/** A system's expected energy from its place's reference yield. */
export const expectedFromYield = (capacityW: number, calibration: number, whPerKw: number) =>
  Math.round((capacityW / 1000) * calibration * whPerKw);

export const irradiationKey = (locationKey: string, dayStartMs: number) => `${locationKey}|${dayStartMs}`;

/** Each zone's current local day, computed once per zone. */
function localDays(now: number) {
  const days = new Map<string, ReturnType<typeof localDayOf>>();
  return (zone: string) => {
    let day = days.get(zone);
    if (!day) {
      day = localDayOf(now, zone);
      days.set(zone, day);
    }
    return day;
  };
}

/** The irradiance windows (today so far, in each system's zone) the metrics need. */
export function todayIrradianceWindows(systems: readonly SystemMetricRow[], now: number): IrradianceWindow[] {
  const today = localDays(now);
  const windows = new Map<string, IrradianceWindow>();
  for (const row of systems) {
    if (!row.location_key) continue;
    for (const window of todayWindows(row.location_key, today(row.timezone), now)) {
      windows.set(irradiationKey(window.key, window.start), window);
    }
  }
  return [...windows.values()];
}

/** The hour in progress at `now`, as its UTC start, within the local day. */
const hourInProgress = (day: LocalDay, now: number) =>
  Math.max(day.startMs, Math.floor(now / HOUR_MS) * HOUR_MS);

/**
 * Today's windows of a place: the finished hours, and the hour in progress (the weather service's
 * value for it, stored until the finished one replaces it). Each stays the same for the hour, so
 * ReferenceYields holds them; todayYield takes the elapsed share of the second.
 */
export function todayWindows(locationKey: string, day: LocalDay, now: number): IrradianceWindow[] {
  const current = hourInProgress(day, now);
  const windows = [{ key: locationKey, start: current, end: Math.min(day.endMs, current + HOUR_MS) }];
  if (current > day.startMs) windows.push({ key: locationKey, start: day.startMs, end: current });
  return windows;
}

/**
 * Today's reference yield so far (Wh per kW): the finished hours', and the hour in progress by the
 * share of it elapsed, so the expectation runs to now as today's energy counter does. Without the
 * hour in progress it ended at the last stored hour, up to two hours before the counter (the
 * weather is refreshed hourly), and a plant at noon read PR 140 % against 108 % over the hours with both.
 */
export function todayYield(
  irradiation: IrradiationByDay,
  locationKey: string,
  day: LocalDay,
  now: number,
): number | undefined {
  const current = hourInProgress(day, now);
  const finished = current > day.startMs ? irradiation.get(irradiationKey(locationKey, day.startMs)) : 0;
  const inProgress = irradiation.get(irradiationKey(locationKey, current));
  if (finished === undefined && inProgress === undefined) return undefined;
  return (finished ?? 0) + Math.min(1, (now - current) / HOUR_MS) * (inProgress ?? 0);
}

/** The reference yield of each window, from the weather service's hours in it. */
export async function readIrradiation(db: Db, windows: IrradianceWindow[]): Promise<IrradiationByDay> {
  const byWindow = await weatherInWindows(db, windows);
  const yields: IrradiationByDay = new Map();
  for (const [key, hours] of byWindow) {
    const place = placeOfKey(key.slice(0, key.lastIndexOf("|")));
    if (place) yields.set(key, referenceWhPerKw(place, hours));
  }
  return yields;
}

/**
 * The dashboard's entries from already-read rows: pure, so one read serves the whole fleet.
 * `irradiation` must hold today's window of every located system (see todayIrradianceWindows).
 * Today's expectation is each system's calibration × capacity × its place's reference yield.
 */
export function metricsFromRows(
  rows: MetricRows,
  irradiation: IrradiationByDay,
  now: number,
  calibrationOf: CalibrationOf = defaultCalibration,
): FleetMetric[] {
  const today = localDays(now);
  const invertersBySystem = new Map<string, InverterMetricRow[]>();
  for (const inv of rows.inverters) {
    const list = invertersBySystem.get(inv.system_id) ?? [];
    list.push(inv);
    invertersBySystem.set(inv.system_id, list);
  }
  return rows.systems.map((row) => ({ locationKey: row.location_key, metric: toMetric(row) }));

  function toMetric(row: SystemMetricRow): DashboardMetric {
    const capacityW = row.capacity_w ?? 0;
    const stale = isStale({ dataTime: row.data_time, latitude: row.latitude, longitude: row.longitude }, now);
    const powerW = row.power_w ?? 0;
    const day = today(row.timezone);
    const todayWh = energyTodayWh(row, day);
    const whPerKw = row.location_key ? todayYield(irradiation, row.location_key, day, now) : undefined;
    const expectedTodayWh =
      whPerKw === undefined ? null : expectedFromYield(capacityW, calibrationOf(row.id), whPerKw);
    const status =
      row.state === "alarm"
        ? "fault"
        : stale && row.data_time !== null
          ? "stale"
          : row.state === "online"
            ? "online"
            : "offline";
    return {
      systemId: row.id,
      siteId: row.site_id,
      siteName: row.site_name,
      stationName: row.name,
      provider: row.provider as ProviderId,
      providerId: row.provider_system_id,
      ...metricReadings(powerW, todayWh, capacityW),
      performanceRatio: expectedTodayWh === null ? null : performanceRatio(todayWh, expectedTodayWh),
      expectedTodayWh,
      state: stateNumber(row.state),
      status,
      dataTime: row.data_time === null ? null : new Date(row.data_time).toISOString(),
      stale,
      timezone: row.timezone,
      inverters: (invertersBySystem.get(row.id) ?? []).map((inv) => ({
        sn: inv.serial,
        state: stateNumber(inv.state),
        currentPowerW: inv.power_w ?? 0,
        pac: inv.power_w ?? 0,
        power: inv.power_w ?? 0,
        energyWh: inv.energy_today_wh ?? 0,
        temperatureC: inv.temperature_c,
      })),
      location: { address: row.address, latitude: row.latitude, longitude: row.longitude },
    };
  }
}
