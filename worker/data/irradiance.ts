import type { SqlRow } from "../../schema/sql-row";
import type { irradianceHourly } from "../../schema/tables";
import type { Db } from "../lib/db";
import { locationKeySql } from "./system-place";

export interface IrradianceLocation {
  key: string;
  lat: number;
  lng: number;
}

/**
 * The places whose hourly irradiance is due (never fetched, or longer ago than `fetchedBefore`),
 * oldest first: active sites' and those of plants with coordinates but no site, so a plant's
 * expected energy does not wait for a site. Keys are built in SQL the way readers build them.
 */
export async function listDueIrradianceLocations(db: Db, fetchedBefore: number, limit: number) {
  const rows = await db.$client
    .prepare(
      `WITH places AS (
         SELECT latitude AS lat, longitude AS lng FROM sites WHERE is_active = 1
         UNION ALL
         SELECT latitude, longitude FROM monitoring_systems
         WHERE site_id IS NULL AND latitude IS NOT NULL AND longitude IS NOT NULL
       )
       SELECT ${locationKeySql("p.lat", "p.lng")} AS key, round(p.lat, 2) AS lat, round(p.lng, 2) AS lng
       FROM places p LEFT JOIN irradiance_fetches f ON f.location_key = ${locationKeySql("p.lat", "p.lng")}
       WHERE f.fetched_at IS NULL OR f.fetched_at < ?
       GROUP BY key ORDER BY min(coalesce(f.fetched_at, 0)) LIMIT ?`,
    )
    .bind(fetchedBefore, limit)
    .all<IrradianceLocation>();
  return rows.results;
}

/** Hourly mean GHI (W/m²) of one location, replacing hours already stored. */
export const upsertIrradianceHours = (
  db: Db,
  locationKey: string,
  hours: { hourStart: number; ghi: number }[],
) =>
  db.$client
    .prepare(
      `INSERT INTO irradiance_hourly (location_key, hour_start, ghi_wm2)
       SELECT ?, json_extract(j.value, '$.hourStart'), json_extract(j.value, '$.ghi') FROM json_each(?) AS j WHERE true
       ON CONFLICT (location_key, hour_start) DO UPDATE SET ghi_wm2 = excluded.ghi_wm2`,
    )
    .bind(locationKey, JSON.stringify(hours));

export const recordIrradianceFetch = (db: Db, location: IrradianceLocation, now: number) =>
  db.$client
    .prepare(
      `INSERT INTO irradiance_fetches (location_key, latitude, longitude, fetched_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (location_key) DO UPDATE SET fetched_at = excluded.fetched_at`,
    )
    .bind(location.key, location.lat, location.lng, now);

/** Hourly GHI of the listed locations over [fromMs, toMs]. */
export async function listIrradianceHours(db: Db, locationKeys: string[], fromMs: number, toMs: number) {
  const rows = await db.$client
    .prepare(
      `SELECT location_key, hour_start, ghi_wm2 FROM irradiance_hourly
       WHERE location_key IN (SELECT value FROM json_each(?)) AND hour_start >= ? AND hour_start <= ?`,
    )
    .bind(JSON.stringify(locationKeys), fromMs, toMs)
    .all<Pick<SqlRow<typeof irradianceHourly>, "location_key" | "hour_start" | "ghi_wm2">>();
  return rows.results;
}

/**
 * Removes up to `maxRows` hours that started before `before`, oldest first, at every location
 * (served by irradiance_hourly_hour_idx); answers how many were removed. Each removed row bumps the
 * irradiance counter (migration 0005's trigger), as every write to the table does, and D1's change
 * count includes those writes: the removed hours are counted from the rows returned instead.
 */
export async function deleteIrradianceHoursBefore(db: Db, before: number, maxRows: number): Promise<number> {
  const removed = await db.$client
    .prepare(
      `DELETE FROM irradiance_hourly WHERE rowid IN (
         SELECT rowid FROM irradiance_hourly WHERE hour_start < ? ORDER BY hour_start LIMIT ?)
       RETURNING hour_start`,
    )
    .bind(before, maxRows)
    .raw();
  return removed.length;
}
