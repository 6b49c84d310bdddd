import type { SqlRow } from "../../schema/sql-row";
import type { irradianceFetches, irradianceHourly } from "../../schema/tables";
import type { WeatherHour } from "../domain/solar/plane-of-array";
import type { Db } from "../lib/db";
import { locationKeySql, SYSTEM_LOCATION_KEY, SYSTEM_WITH_SITE } from "./system-place";

export interface IrradianceLocation {
  key: string;
  lat: number;
  lng: number;
  /** How far back the stored past reaches (irradiance_fetches.history_from); null before it was fetched. */
  historyFrom: number | null;
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
       SELECT ${locationKeySql("p.lat", "p.lng")} AS key, round(p.lat, 2) AS lat, round(p.lng, 2) AS lng,
         f.history_from AS historyFrom
       FROM places p LEFT JOIN irradiance_fetches f ON f.location_key = ${locationKeySql("p.lat", "p.lng")}
       WHERE f.fetched_at IS NULL OR f.fetched_at < ?
       GROUP BY key ORDER BY min(coalesce(f.fetched_at, 0)) LIMIT ?`,
    )
    .bind(fetchedBefore, limit)
    .all<IrradianceLocation>();
  return rows.results;
}

/**
 * The given places (location keys, "52.37,4.90") with how far back their stored past reaches; a
 * place never fetched answers with null.
 */
export async function listIrradianceLocations(db: Db, locationKeys: string[]): Promise<IrradianceLocation[]> {
  const rows = await db.$client
    .prepare(
      `SELECT k.value AS key, f.history_from AS historyFrom
       FROM json_each(?) AS k LEFT JOIN irradiance_fetches f ON f.location_key = k.value`,
    )
    .bind(JSON.stringify([...new Set(locationKeys)]))
    .all<{ key: string; historyFrom: SqlRow<typeof irradianceFetches>["history_from"] }>();
  return rows.results.map((row) => {
    const [lat, lng] = row.key.split(",").map(Number);
    return { key: row.key, lat: lat ?? 0, lng: lng ?? 0, historyFrom: row.historyFrom };
  });
}

/** One stored hour as the weather service gave it (see irradiance_hourly). */
export interface WeatherHourRow {
  hourStart: number;
  ghi: number;
  direct: number | null;
  diffuse: number | null;
  temperature: number | null;
  wind: number | null;
  precipitation: number | null;
}

/**
 * Hours of one location, replacing stored hours whose values changed: a refresh asks for two past
 * days again (the service revises recent hours), and an unchanged hour rewritten is a row billed.
 */
export const upsertIrradianceHours = (db: Db, locationKey: string, hours: WeatherHourRow[]) =>
  db.$client
    .prepare(
      `INSERT INTO irradiance_hourly (location_key, hour_start, ghi_wm2, direct_wm2, diffuse_wm2, temperature_c,
         wind_ms, precipitation_mm)
       SELECT ?, j.value ->> 'hourStart', j.value ->> 'ghi', j.value ->> 'direct', j.value ->> 'diffuse',
         j.value ->> 'temperature', j.value ->> 'wind', j.value ->> 'precipitation'
       FROM json_each(?) AS j WHERE true
       ON CONFLICT (location_key, hour_start) DO UPDATE SET ghi_wm2 = excluded.ghi_wm2,
         direct_wm2 = excluded.direct_wm2, diffuse_wm2 = excluded.diffuse_wm2,
         temperature_c = excluded.temperature_c, wind_ms = excluded.wind_ms,
         precipitation_mm = excluded.precipitation_mm
       WHERE ghi_wm2 IS NOT excluded.ghi_wm2 OR direct_wm2 IS NOT excluded.direct_wm2
         OR diffuse_wm2 IS NOT excluded.diffuse_wm2 OR temperature_c IS NOT excluded.temperature_c
         OR wind_ms IS NOT excluded.wind_ms OR precipitation_mm IS NOT excluded.precipitation_mm`,
    )
    .bind(locationKey, JSON.stringify(hours));

/** A fetch of a location at `now`; `historyFrom` when it brought the past (else the stored one stays). */
export const recordIrradianceFetch = (
  db: Db,
  location: Pick<IrradianceLocation, "key" | "lat" | "lng">,
  now: number,
  historyFrom: number | null = null,
) =>
  db.$client
    .prepare(
      `INSERT INTO irradiance_fetches (location_key, latitude, longitude, fetched_at, history_from) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (location_key) DO UPDATE SET fetched_at = excluded.fetched_at,
         history_from = coalesce(excluded.history_from, irradiance_fetches.history_from)`,
    )
    .bind(location.key, location.lat, location.lng, now, historyFrom);

/** A stored hour's columns: what every reader of irradiance_hourly selects. */
export type HourColumns = Pick<
  SqlRow<typeof irradianceHourly>,
  | "location_key"
  | "hour_start"
  | "ghi_wm2"
  | "direct_wm2"
  | "diffuse_wm2"
  | "temperature_c"
  | "wind_ms"
  | "precipitation_mm"
>;
export const HOUR_COLUMNS =
  "location_key, hour_start, ghi_wm2, direct_wm2, diffuse_wm2, temperature_c, wind_ms, precipitation_mm";

/** A stored hour as the expected-power model reads it. */
export const toWeatherHour = (row: HourColumns): WeatherHour => ({
  hourStart: row.hour_start,
  ghiWm2: row.ghi_wm2,
  directWm2: row.direct_wm2,
  diffuseWm2: row.diffuse_wm2,
  airC: row.temperature_c,
  windMs: row.wind_ms,
  precipitationMm: row.precipitation_mm,
});

/** The hours of the listed locations over [fromMs, toMs]. */
export async function listIrradianceHours(db: Db, locationKeys: string[], fromMs: number, toMs: number) {
  const rows = await db.$client
    .prepare(
      `SELECT ${HOUR_COLUMNS}
       FROM irradiance_hourly
       WHERE location_key IN (SELECT value FROM json_each(?)) AND hour_start >= ? AND hour_start <= ?`,
    )
    .bind(JSON.stringify(locationKeys), fromMs, toMs)
    .all<HourColumns>();
  return rows.results;
}

/** The hours of the listed locations over [fromMs, toMs], as the model reads them, by location key and hour. */
export async function weatherByLocation(db: Db, locationKeys: string[], fromMs: number, toMs: number) {
  const byKey = new Map<string, Map<number, WeatherHour>>();
  if (locationKeys.length === 0) return byKey;
  for (const row of await listIrradianceHours(db, locationKeys, fromMs, toMs)) {
    const hours = byKey.get(row.location_key) ?? new Map<number, WeatherHour>();
    hours.set(row.hour_start, toWeatherHour(row));
    byKey.set(row.location_key, hours);
  }
  return byKey;
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

/** The distinct places (location keys) of the listed systems of an organisation that have one. */
export async function systemLocationKeys(db: Db, orgId: string, systemIds: string[]): Promise<string[]> {
  const rows = await db.$client
    .prepare(
      `SELECT DISTINCT ${SYSTEM_LOCATION_KEY} AS key FROM ${SYSTEM_WITH_SITE}
       WHERE ms.org_id = ? AND ms.id IN (SELECT value FROM json_each(?)) AND ${SYSTEM_LOCATION_KEY} IS NOT NULL`,
    )
    .bind(orgId, JSON.stringify(systemIds))
    .all<{ key: string }>();
  return rows.results.map((row) => row.key);
}

export interface IrradianceWindow {
  key: string;
  start: number;
  end: number;
}

/**
 * Windows per statement: each statement binds its windows as one JSON value, which SQLite refuses
 * past its size limit (SQLITE_TOOBIG) — the fleet series of 22,000 places asks for 176,000.
 */
export const WINDOWS_PER_STATEMENT = 5_000;

/** The weather service's hours of each window (location and UTC interval), by `${key}|${start}`. */
export async function weatherInWindows(
  db: Db,
  windows: IrradianceWindow[],
): Promise<Map<string, WeatherHour[]>> {
  const byWindow = new Map<string, WeatherHour[]>();
  if (windows.length === 0) return byWindow;
  const statement = db.$client.prepare(
    `SELECT json_extract(q.value, '$.key') AS window_key, json_extract(q.value, '$.start') AS window_start,
       ih.location_key, ih.hour_start, ih.ghi_wm2, ih.direct_wm2, ih.diffuse_wm2, ih.temperature_c, ih.wind_ms,
       ih.precipitation_mm
     FROM json_each(?) AS q
     JOIN irradiance_hourly ih ON ih.location_key = json_extract(q.value, '$.key')
       AND ih.hour_start >= json_extract(q.value, '$.start') AND ih.hour_start < json_extract(q.value, '$.end')`,
  );
  const chunks: D1PreparedStatement[] = [];
  for (let first = 0; first < windows.length; first += WINDOWS_PER_STATEMENT) {
    chunks.push(statement.bind(JSON.stringify(windows.slice(first, first + WINDOWS_PER_STATEMENT))));
  }
  // One round trip, whatever the number of statements.
  const answers = await db.$client.batch<HourColumns & { window_key: string; window_start: number }>(chunks);
  for (const rows of answers) {
    for (const row of rows.results) {
      const key = `${row.window_key}|${row.window_start}`;
      const hours = byWindow.get(key) ?? [];
      hours.push(toWeatherHour(row));
      byWindow.set(key, hours);
    }
  }
  return byWindow;
}
