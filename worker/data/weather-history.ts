import type { Db } from "../lib/db";
import { locationKeySql } from "./system-place";

export interface HourWindow {
  orgId: string;
  siteId: string;
  /** UTC, start inclusive, end exclusive. */
  startMs: number;
  endMs: number;
}

/** How many systems the site has and their summed DC capacity (null when none reports one). */
export async function siteSystemsCapacity(db: Db, orgId: string, siteId: string) {
  const row = await db.$client
    .prepare(
      "SELECT count(*) AS systems, sum(capacity_w) AS capacity_w FROM monitoring_systems WHERE org_id = ? AND site_id = ?",
    )
    .bind(orgId, siteId)
    .first<{ systems: number; capacity_w: number | null }>();
  return { systems: row?.systems ?? 0, capacityW: row?.capacity_w ?? null };
}

/** Mean power per UTC hour summed over the site's systems: one row per hour any of them reported. */
export async function siteHourlyPower(db: Db, window: HourWindow) {
  const rows = await db.$client
    .prepare(
      `SELECT h.hour_start, sum(h.avg_power_w) AS power_w
       FROM monitoring_systems ms
       JOIN system_energy_hourly h ON h.system_id = ms.id AND h.hour_start >= ? AND h.hour_start < ?
       WHERE ms.org_id = ? AND ms.site_id = ?
       GROUP BY h.hour_start`,
    )
    .bind(window.startMs, window.endMs, window.orgId, window.siteId)
    .all<{ hour_start: number; power_w: number | null }>();
  return rows.results;
}

/**
 * Hourly irradiance at the site's location. The key is built in SQL the way the irradiance job
 * writes it (printf), so the two never disagree on rounding.
 */
export async function siteHourlyIrradiance(db: Db, window: HourWindow) {
  const rows = await db.$client
    .prepare(
      `SELECT hour_start, ghi_wm2 FROM irradiance_hourly
       WHERE location_key = (SELECT ${locationKeySql("latitude", "longitude")} FROM sites WHERE id = ? AND org_id = ?)
         AND hour_start >= ? AND hour_start < ?`,
    )
    .bind(window.siteId, window.orgId, window.startMs, window.endMs)
    .all<{ hour_start: number; ghi_wm2: number }>();
  return rows.results;
}
