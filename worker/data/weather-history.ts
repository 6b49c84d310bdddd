import type { SqlRow } from "../../schema/sql-row";
import type { monitoringSystems } from "../../schema/tables";
import type { Db } from "../lib/db";
import { HOUR_COLUMNS, type HourColumns } from "./irradiance";
import { locationKeySql, SYSTEM_LOCATION_KEY, SYSTEM_WITH_SITE, SYSTEM_ZONE } from "./system-place";

export interface HourWindow {
  orgId: string;
  siteId: string;
  /** UTC, start inclusive, end exclusive. */
  startMs: number;
  endMs: number;
}

/** The site's systems' ids and their summed DC capacity (null when none reports one). */
export async function siteSystemsCapacity(db: Db, orgId: string, siteId: string) {
  const rows = await db.$client
    .prepare("SELECT id, capacity_w FROM monitoring_systems WHERE org_id = ? AND site_id = ?")
    .bind(orgId, siteId)
    .all<Pick<SqlRow<typeof monitoringSystems>, "id" | "capacity_w">>();
  const capacities = rows.results.map((r) => r.capacity_w).filter((c): c is number => c !== null);
  return {
    systemIds: rows.results.map((r) => r.id),
    capacityW: capacities.length === 0 ? null : capacities.reduce((sum, c) => sum + c, 0),
  };
}

/**
 * The weather service's hours at the site's location. The key is built in SQL the way the irradiance job
 * writes it (printf), so the two never disagree on rounding.
 */
export async function siteHourlyIrradiance(db: Db, window: HourWindow) {
  const rows = await db.$client
    .prepare(
      `SELECT ${HOUR_COLUMNS} FROM irradiance_hourly
       WHERE location_key = (SELECT ${locationKeySql("latitude", "longitude")} FROM sites WHERE id = ? AND org_id = ?)
         AND hour_start >= ? AND hour_start < ?`,
    )
    .bind(window.siteId, window.orgId, window.startMs, window.endMs)
    .all<HourColumns>();
  return rows.results;
}

/** One system with the place its weather is read at: its site's, else its own coordinates. */
export async function findSystemPlace(db: Db, orgId: string, systemId: string) {
  return db.$client
    .prepare(
      `SELECT ms.id, ms.name, ms.capacity_w, ms.site_id, ${SYSTEM_ZONE} AS timezone, ${SYSTEM_LOCATION_KEY} AS location_key
       FROM ${SYSTEM_WITH_SITE} WHERE ms.org_id = ? AND ms.id = ?`,
    )
    .bind(orgId, systemId)
    .first<
      Pick<SqlRow<typeof monitoringSystems>, "id" | "name" | "capacity_w" | "site_id"> & {
        timezone: string;
        location_key: string | null;
      }
    >();
}

/** The weather service's hours stored under a location key (from findSystemPlace, built by the same SQL). */
export async function hourlyIrradianceAt(db: Db, locationKey: string, startMs: number, endMs: number) {
  const rows = await db.$client
    .prepare(
      `SELECT ${HOUR_COLUMNS} FROM irradiance_hourly WHERE location_key = ? AND hour_start >= ? AND hour_start < ?`,
    )
    .bind(locationKey, startMs, endMs)
    .all<HourColumns>();
  return rows.results;
}
