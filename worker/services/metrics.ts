import { getPosition } from "suncalc";
import type { DashboardMetric } from "../../schema/api/metrics";
import type { ProviderId } from "../../schema/api/providers";
import {
  type InverterMetricRow,
  listInverterMetricRows,
  listSystemMetricRows,
  type SystemMetricRow,
  sumIrradiance,
} from "../data/metrics";
import { expectedEnergyWh, performanceRatio } from "../lib/energy/expected";
import { localDayOf } from "../lib/energy/local-day";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";

/** No data for this long while the sun is up means the system is stale, not producing 0 W. */
export const STALE_AFTER_MS = 30 * 60_000;

const numericState = (state: string) => (state === "online" ? 1 : state === "alarm" ? 3 : 2);

function isDaylight(latitude: number | null, longitude: number | null, at: number): boolean {
  if (latitude === null || longitude === null) return true;
  // suncalc 2 answers the altitude in degrees.
  return getPosition(new Date(at), latitude, longitude).altitude > 0;
}

export function isStale(
  row: Pick<SystemMetricRow, "data_time" | "latitude" | "longitude">,
  now: number,
): boolean {
  if (row.data_time === null) return true;
  return now - row.data_time > STALE_AFTER_MS && isDaylight(row.latitude, row.longitude, now);
}

/** Today's energy counts only if the vendor's counter is from today in the system's own zone. */
function energyTodayWh(row: SystemMetricRow, today: { startMs: number; endMs: number }): number {
  if (row.data_time === null || row.energy_today_wh === null) return 0;
  return row.data_time >= today.startMs && row.data_time < today.endMs ? row.energy_today_wh : 0;
}

/**
 * The dashboard's entries, one per system, computed with three queries whatever the fleet's
 * size: systems with their sites, the inverters, and today's irradiation per location.
 */
export async function dashboardMetrics(ctx: UserContext): Promise<DashboardMetric[]> {
  return (await metricsWithLocations(ctx)).map((m) => m.metric);
}

/** The metrics with each system's irradiance location key (the same rounding as stored rows). */
export async function metricsWithLocations(
  ctx: UserContext,
  /** One system (or the systems of one site) instead of the whole fleet. */
  systemId?: string,
): Promise<{ metric: DashboardMetric; locationKey: string | null }[]> {
  const org = authorizeOrgAction(ctx, "org:read");
  const now = org.now;
  const [systems, inverters] = await Promise.all([
    listSystemMetricRows(org.db, org.user.orgId, systemId),
    listInverterMetricRows(org.db, org.user.orgId, systemId),
  ]);
  const windows = new Map<string, { key: string; start: number; end: number }>();
  const dayOfZone = new Map<string, ReturnType<typeof localDayOf>>();
  const today = (zone: string) => {
    let day = dayOfZone.get(zone);
    if (!day) {
      day = localDayOf(now, zone);
      dayOfZone.set(zone, day);
    }
    return day;
  };
  for (const row of systems) {
    if (!row.location_key) continue;
    const day = today(row.timezone);
    windows.set(`${row.location_key}|${day.startMs}`, {
      key: row.location_key,
      start: day.startMs,
      end: Math.min(day.endMs, now),
    });
  }
  const irradiation = new Map(
    (await sumIrradiance(org.db, [...windows.values()])).map((r) => [`${r.key}|${r.start}`, r.wh_m2]),
  );
  const invertersBySystem = new Map<string, InverterMetricRow[]>();
  for (const inv of inverters) {
    const list = invertersBySystem.get(inv.system_id) ?? [];
    list.push(inv);
    invertersBySystem.set(inv.system_id, list);
  }
  return systems.map((row) => ({ locationKey: row.location_key, metric: toMetric(row) }));

  function toMetric(row: SystemMetricRow): DashboardMetric {
    const capacityW = row.capacity_w ?? 0;
    const stale = isStale(row, now);
    const powerW = row.power_w ?? 0;
    const todayWh = energyTodayWh(row, today(row.timezone));
    const whPerM2 = row.location_key
      ? irradiation.get(`${row.location_key}|${today(row.timezone).startMs}`)
      : undefined;
    const expectedTodayWh = whPerM2 === undefined ? null : expectedEnergyWh(capacityW, [whPerM2]);
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
      currentPowerW: powerW,
      pac: powerW,
      currentPower: powerW,
      power: powerW,
      todayGenerationWh: todayWh,
      etoday: todayWh / 1000,
      todayGeneration: todayWh / 1000,
      yieldtoday: todayWh / 1000,
      capacity: capacityW / 1000,
      efficiency: capacityW > 0 ? Math.round((powerW / capacityW) * 1000) / 10 : 0,
      performanceRatio: expectedTodayWh === null ? null : performanceRatio(todayWh, expectedTodayWh),
      expectedTodayWh,
      state: numericState(row.state),
      status,
      dataTime: row.data_time === null ? null : new Date(row.data_time).toISOString(),
      stale,
      timezone: row.timezone,
      inverters: (invertersBySystem.get(row.id) ?? []).map((inv) => ({
        sn: inv.serial,
        state: numericState(inv.state),
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

/** SPEC's fallback totals, for the client when the metrics call fails. Meteronline is excluded. */
export async function dashboardFallback(ctx: UserContext) {
  const metrics = (await dashboardMetrics(ctx)).filter((m) => m.provider !== "meteronline");
  return {
    matchedSites: new Set(metrics.map((m) => m.siteId ?? m.systemId)).size,
    totalCurrentPower: metrics.reduce((sum, m) => sum + (m.stale ? 0 : m.currentPowerW), 0),
    totalTodayGeneration: Math.round(metrics.reduce((sum, m) => sum + m.todayGenerationWh, 0)) / 1000,
  };
}
