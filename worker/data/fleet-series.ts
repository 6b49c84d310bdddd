import type { Db } from "../lib/db";
import { SYSTEM_LATITUDE, SYSTEM_LOCATION_KEY, SYSTEM_WITH_SITE, SYSTEM_ZONE } from "./system-place";

/*
 * Fleet-wide reads for the dashboard's series: each query aggregates over all of an
 * organisation's systems at once, so the number of queries does not grow with the fleet.
 * A system's zone and irradiance location come from system-place.ts, as in data/metrics.ts,
 * so the days and expectations match the metrics.
 */
const FROM_COUNTED_SYSTEMS = `FROM ${SYSTEM_WITH_SITE}`;
/** SPEC section 9: meteronline systems stay out of fleet totals. */
const COUNTED_SYSTEMS = `ms.org_id = ? AND ms.provider <> 'meteronline'`;
/** Only systems with a capacity and a location can have an irradiance-based expectation. */
const HAS_EXPECTATION = `ms.capacity_w > 0 AND ${SYSTEM_LATITUDE} IS NOT NULL`;
const HOUR_MS = 3_600_000;

export interface FleetGroupRow {
  zone: string;
  location_key: string | null;
  systems: number;
}

/** The counted systems grouped by zone and irradiance location: the windows the other reads need. */
export async function listFleetGroups(db: Db, orgId: string) {
  const rows = await db.$client
    .prepare(
      `SELECT ${SYSTEM_ZONE} AS zone, ${SYSTEM_LOCATION_KEY} AS location_key, count(*) AS systems
       ${FROM_COUNTED_SYSTEMS} WHERE ${COUNTED_SYSTEMS} GROUP BY 1, 2`,
    )
    .bind(orgId)
    .all<FleetGroupRow>();
  return rows.results;
}

export interface ProviderHourRow {
  hour_start: number;
  provider: string;
  power_w: number;
}

/** Hourly mean power summed per provider over the counted systems, for hours starting in [from, to]. */
export async function sumHourlyPowerByProvider(db: Db, orgId: string, fromMs: number, toMs: number) {
  const rows = await db.$client
    .prepare(
      `SELECT h.hour_start, ms.provider, sum(h.avg_power_w) AS power_w
       FROM monitoring_systems ms JOIN system_energy_hourly h ON h.system_id = ms.id
       WHERE ${COUNTED_SYSTEMS} AND h.hour_start >= ? AND h.hour_start <= ? AND h.avg_power_w IS NOT NULL
       GROUP BY h.hour_start, ms.provider ORDER BY h.hour_start, ms.provider`,
    )
    .bind(orgId, fromMs, toMs)
    .all<ProviderHourRow>();
  return rows.results;
}

/** Per zone: today so far, and yesterday from its start to the same wall-clock time. */
export interface SameTimeWindow {
  zone: string;
  yesterdayStart: number;
  sameTimeYesterday: number;
  todayStart: number;
  now: number;
}

/**
 * Energy (Wh) today so far and yesterday up to the same time, integrated from hourly mean power:
 * each hour counts for the part of it inside the window, so partial hours are prorated. Only
 * systems with an hour before the same time yesterday count, on both sides. One aggregate over
 * the two windows' hours (no per-system grouping, which would sort every hour read).
 */
export async function sumSameTimeEnergy(db: Db, orgId: string, windows: SameTimeWindow[]) {
  const empty = { systems: 0, today_wh: 0, yesterday_wh: 0 };
  if (windows.length === 0) return empty;
  const row = await db.$client
    .prepare(
      `WITH w AS (
         SELECT json_extract(value, '$.zone') AS zone, json_extract(value, '$.yesterdayStart') AS y_start,
           json_extract(value, '$.sameTimeYesterday') AS y_end, json_extract(value, '$.todayStart') AS t_start,
           json_extract(value, '$.now') AS t_end
         FROM json_each(?)
       ),
       compared AS MATERIALIZED (
         SELECT ms.id, w.y_start, w.y_end, w.t_start, w.t_end
         ${FROM_COUNTED_SYSTEMS} JOIN w ON w.zone = ${SYSTEM_ZONE}
         WHERE ${COUNTED_SYSTEMS} AND EXISTS (
           SELECT 1 FROM system_energy_hourly y WHERE y.system_id = ms.id
             AND y.hour_start > w.y_start - ${HOUR_MS} AND y.hour_start < w.y_end AND y.avg_power_w IS NOT NULL)
       )
       SELECT (SELECT count(*) FROM compared) AS systems,
         coalesce(sum(h.avg_power_w * max(0, min(h.hour_start + ${HOUR_MS}, c.t_end) - max(h.hour_start, c.t_start))), 0)
           / ${HOUR_MS}.0 AS today_wh,
         coalesce(sum(h.avg_power_w * max(0, min(h.hour_start + ${HOUR_MS}, c.y_end) - max(h.hour_start, c.y_start))), 0)
           / ${HOUR_MS}.0 AS yesterday_wh
       FROM compared c JOIN system_energy_hourly h ON h.system_id = c.id
         AND ((h.hour_start > c.y_start - ${HOUR_MS} AND h.hour_start < c.y_end)
           OR (h.hour_start > c.t_start - ${HOUR_MS} AND h.hour_start < c.t_end))
       WHERE h.avg_power_w IS NOT NULL`,
    )
    .bind(JSON.stringify(windows), orgId)
    .first<{ systems: number; today_wh: number; yesterday_wh: number }>();
  return row ?? empty;
}

export interface GroupEnergyRow {
  zone: string;
  location_key: string;
  /** YYYY-MM-DD in the zone. */
  date: string;
  energy_wh: number;
  /** Capacity of the systems with a stored energy that day: what the expectation is for. */
  capacity_w: number;
}

/**
 * Stored daily energy per zone and location for the given local dates, over the systems that can
 * have an expectation and have a stored day (a system without one is left out of that day). The
 * date bounds keep each system's read to the requested days, however long its history.
 */
export async function sumDailyEnergyByGroup(db: Db, orgId: string, days: { zone: string; date: string }[]) {
  if (days.length === 0) return [];
  const dates = days.map((day) => day.date).sort();
  const rows = await db.$client
    .prepare(
      `WITH d AS MATERIALIZED (
         SELECT json_extract(value, '$.zone') AS zone, json_extract(value, '$.date') AS date FROM json_each(?)
       ),
       sys AS MATERIALIZED (
         SELECT ms.id, ms.capacity_w, ${SYSTEM_ZONE} AS zone, ${SYSTEM_LOCATION_KEY} AS location_key
         ${FROM_COUNTED_SYSTEMS} WHERE ${COUNTED_SYSTEMS} AND ${HAS_EXPECTATION}
       )
       SELECT sys.zone, sys.location_key, d.date, sum(e.energy_wh) AS energy_wh, sum(sys.capacity_w) AS capacity_w
       FROM sys JOIN d ON d.zone = sys.zone
       JOIN system_energy_daily e ON e.system_id = sys.id AND e.date = d.date AND e.date >= ? AND e.date <= ?
       GROUP BY 1, 2, 3`,
    )
    .bind(JSON.stringify(days), orgId, dates[0], dates[dates.length - 1])
    .all<GroupEnergyRow>();
  return rows.results;
}

export interface GroupTodayRow {
  zone: string;
  location_key: string;
  energy_wh: number;
  capacity_w: number;
}

/**
 * Today's energy per zone and location from the vendors' energy-today counters, counted only when
 * the counter's data time is in today's local day (the rule the dashboard metrics use).
 */
export async function sumTodayEnergyByGroup(
  db: Db,
  orgId: string,
  days: { zone: string; startMs: number; endMs: number }[],
) {
  if (days.length === 0) return [];
  const rows = await db.$client
    .prepare(
      `WITH d AS (
         SELECT json_extract(value, '$.zone') AS zone, json_extract(value, '$.startMs') AS start_ms,
           json_extract(value, '$.endMs') AS end_ms
         FROM json_each(?)
       )
       SELECT d.zone, ${SYSTEM_LOCATION_KEY} AS location_key, sum(ms.capacity_w) AS capacity_w,
         sum(CASE WHEN ms.data_time >= d.start_ms AND ms.data_time < d.end_ms
           THEN coalesce(ms.energy_today_wh, 0) ELSE 0 END) AS energy_wh
       ${FROM_COUNTED_SYSTEMS}
       JOIN d ON d.zone = ${SYSTEM_ZONE}
       WHERE ${COUNTED_SYSTEMS} AND ${HAS_EXPECTATION}
       GROUP BY 1, 2`,
    )
    .bind(JSON.stringify(days), orgId)
    .all<GroupTodayRow>();
  return rows.results;
}
