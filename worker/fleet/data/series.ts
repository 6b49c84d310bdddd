import { sql } from "drizzle-orm";
import type { fleetSystems } from "../../../schema/fleet-tables";
import type { SqlRow } from "../../../schema/sql-row";
import type { FleetDb } from "../db";
import type { SystemKeyRange } from "./reads";
import { openHours, openHoursJson } from "./rollups";

/*
 * Fleet-wide reads for the dashboard's series: each query aggregates over one range of system
 * keys (the caller reads the ranges a turn apart and adds them up, so a sync page waits for one
 * range, not the fleet). Hour ranges are turned into bounds on the stored hour number, and CROSS
 * JOIN fixes the join order (SQLite keeps it): the small side drives and every read of a rollup
 * table is a range of its (sys, …) key, never a scan of a table that holds a year of every
 * system's hours. Each system's open hour (not rolled up yet) is computed from its points and
 * taken beside the stored rollups.
 */
const HOUR_MS = 3_600_000;
/** Meteronline systems (CSV imports) stay out of fleet totals. */
const COUNTED = sql.raw("s.provider <> 'meteronline'");
type SystemColumns = SqlRow<typeof fleetSystems>;

/** The zones of the counted systems: the windows the other reads need. */
export function countedZones(db: FleetDb): string[] {
  return db
    .all<{ zone: string }>(sql`SELECT DISTINCT s.timezone AS zone FROM systems s WHERE ${COUNTED}`)
    .map((row) => row.zone);
}

export type ProviderHourRow = Pick<SystemColumns, "provider"> & { hour_start: number; power_w: number };

/** The open hours of the counted systems of a range (read once for the series' sums while nothing is written). */
const countedOpenHours = (db: FleetDb, range: SystemKeyRange) =>
  openHours(
    db,
    sql`${COUNTED} AND s.sys BETWEEN ${range.first} AND ${range.last}`,
    `counted|${range.first}|${range.last}`,
  );

/** Hourly mean power summed per provider over the counted systems, for hours starting in [from, to]. */
export function sumHourlyPowerByProvider(db: FleetDb, range: SystemKeyRange, fromMs: number, toMs: number) {
  const first = Math.ceil(fromMs / HOUR_MS);
  const last = Math.floor(toMs / HOUR_MS);
  const rows = db.all<ProviderHourRow>(sql`
    SELECT h.hour * ${HOUR_MS} AS hour_start, s.provider, sum(h.avg_power_w) AS power_w
    FROM systems s CROSS JOIN system_hourly h ON h.sys = s.sys
      AND h.hour >= ${first} AND h.hour <= ${last}
    WHERE ${COUNTED} AND s.sys BETWEEN ${range.first} AND ${range.last} AND h.avg_power_w IS NOT NULL
    GROUP BY h.hour, s.provider ORDER BY h.hour, s.provider`);
  const open = countedOpenHours(db, range).filter(
    (h) => h.hour >= first && h.hour <= last && h.avgPowerW !== null,
  );
  if (open.length === 0) return rows;
  const providers = new Map(
    db
      .all<Pick<SystemColumns, "sys" | "provider">>(sql`
        SELECT sys, provider FROM systems WHERE sys IN (SELECT value FROM json_each(${JSON.stringify(open.map((h) => h.sys))}))`)
      .map((row) => [row.sys, row.provider]),
  );
  const byKey = new Map(rows.map((row) => [`${row.hour_start}|${row.provider}`, { ...row }]));
  for (const hour of open) {
    const provider = providers.get(hour.sys);
    if (provider === undefined) continue;
    const hourStart = hour.hour * HOUR_MS;
    const row = byKey.get(`${hourStart}|${provider}`);
    if (row) row.power_w += hour.avgPowerW ?? 0;
    else
      byKey.set(`${hourStart}|${provider}`, {
        hour_start: hourStart,
        provider,
        power_w: hour.avgPowerW ?? 0,
      });
  }
  return [...byKey.values()].sort((a, b) =>
    a.hour_start !== b.hour_start ? a.hour_start - b.hour_start : a.provider < b.provider ? -1 : 1,
  );
}

/** Per zone: today so far, and yesterday from its start to the same wall-clock time. */
export interface SameTimeWindow {
  zone: string;
  yesterdayStart: number;
  sameTimeYesterday: number;
  todayStart: number;
  now: number;
}

/** The hour numbers whose hours overlap [start, end): first and last inclusive. */
const overlappingHours = (startMs: number, endMs: number) => ({
  first: Math.floor(startMs / HOUR_MS),
  last: Math.ceil(endMs / HOUR_MS) - 1,
});

/** A range's same-time sums, and how many of the systems with data today have a yesterday to compare. */
export interface SameTimeRow {
  /** Systems with an hour before the same time yesterday: the ones both sides count. */
  systems: number;
  /** Systems with an hour today. */
  reporting: number;
  /** Of those, the ones compared. */
  reporting_compared: number;
  today_wh: number;
  yesterday_wh: number;
}

/**
 * Energy (Wh) today so far and yesterday up to the same time, integrated from hourly mean power:
 * each hour counts for the part of it inside the window, so partial hours are prorated. Only
 * systems with an hour before the same time yesterday count, on both sides.
 */
export function sumSameTimeEnergy(
  db: FleetDb,
  range: SystemKeyRange,
  windows: SameTimeWindow[],
): SameTimeRow {
  const empty = { systems: 0, reporting: 0, reporting_compared: 0, today_wh: 0, yesterday_wh: 0 };
  if (windows.length === 0) return empty;
  const bounds = windows.map((w) => {
    const yesterday = overlappingHours(w.yesterdayStart, w.sameTimeYesterday);
    const today = overlappingHours(w.todayStart, w.now);
    return { ...w, yFirst: yesterday.first, yLast: yesterday.last, tFirst: today.first, tLast: today.last };
  });
  const open = openHoursJson(countedOpenHours(db, range).filter((h) => h.avgPowerW !== null));
  const row = db.get<SameTimeRow>(sql`
    WITH oh AS MATERIALIZED (
      SELECT value ->> 0 AS sys, value ->> 1 AS hour, value ->> 2 AS avg_power_w FROM json_each(${open})
    ),
    w AS (
      SELECT value ->> 'zone' AS zone, value ->> 'yesterdayStart' AS y_start, value ->> 'sameTimeYesterday' AS y_end,
        value ->> 'todayStart' AS t_start, value ->> 'now' AS t_end, value ->> 'yFirst' AS y_first,
        value ->> 'yLast' AS y_last, value ->> 'tFirst' AS t_first, value ->> 'tLast' AS t_last
      FROM json_each(${JSON.stringify(bounds)})
    ),
    compared AS MATERIALIZED (
      SELECT s.sys, w.* FROM systems s JOIN w ON w.zone = s.timezone
      WHERE ${COUNTED} AND s.sys BETWEEN ${range.first} AND ${range.last} AND (EXISTS (
        SELECT 1 FROM system_hourly y WHERE y.sys = s.sys AND y.hour >= w.y_first AND y.hour <= w.y_last
          AND y.avg_power_w IS NOT NULL)
        OR EXISTS (SELECT 1 FROM oh WHERE oh.sys = s.sys AND oh.hour >= w.y_first AND oh.hour <= w.y_last))
    ),
    reporting AS MATERIALIZED (
      SELECT s.sys FROM systems s JOIN w ON w.zone = s.timezone
      WHERE ${COUNTED} AND s.sys BETWEEN ${range.first} AND ${range.last} AND (EXISTS (
        SELECT 1 FROM system_hourly t WHERE t.sys = s.sys AND t.hour >= w.t_first AND t.hour <= w.t_last
          AND t.avg_power_w IS NOT NULL)
        OR EXISTS (SELECT 1 FROM oh WHERE oh.sys = s.sys AND oh.hour >= w.t_first AND oh.hour <= w.t_last))
    ),
    hours AS (
      SELECT c.*, h.hour * ${HOUR_MS} AS hour_start, h.avg_power_w FROM compared c CROSS JOIN system_hourly h
        ON h.sys = c.sys AND h.hour >= c.y_first AND h.hour <= c.y_last WHERE h.avg_power_w IS NOT NULL
      UNION ALL
      SELECT c.*, h.hour * ${HOUR_MS} AS hour_start, h.avg_power_w FROM compared c CROSS JOIN system_hourly h
        ON h.sys = c.sys AND h.hour >= c.t_first AND h.hour <= c.t_last WHERE h.avg_power_w IS NOT NULL
      UNION ALL
      SELECT c.*, oh.hour * ${HOUR_MS} AS hour_start, oh.avg_power_w FROM compared c CROSS JOIN oh
        ON oh.sys = c.sys AND ((oh.hour >= c.y_first AND oh.hour <= c.y_last) OR (oh.hour >= c.t_first AND oh.hour <= c.t_last))
    )
    SELECT (SELECT count(*) FROM compared) AS systems, (SELECT count(*) FROM reporting) AS reporting,
      (SELECT count(*) FROM reporting r WHERE r.sys IN (SELECT sys FROM compared)) AS reporting_compared,
      coalesce(sum(avg_power_w * max(0, min(hour_start + ${HOUR_MS}, t_end) - max(hour_start, t_start))), 0)
        / 3600000.0 AS today_wh,
      coalesce(sum(avg_power_w * max(0, min(hour_start + ${HOUR_MS}, y_end) - max(hour_start, y_start))), 0)
        / 3600000.0 AS yesterday_wh
    FROM hours`);
  return row ?? empty;
}

/** A past day's loss accounts added up over the counted systems: the day's index in the caller's list. */
export interface AccountedDayRow {
  day: number;
  actual_wh: number;
  expected_wh: number;
}

/**
 * Actual and expected energy of the finished days the loss accounts hold, summed per day index
 * over the range's counted systems: `days` names, per zone, the plant-local date of each index
 * (the i-th day before today in every zone). Read by the (sys, date) key of each system's days.
 */
export function sumAccountedDays(
  db: FleetDb,
  range: SystemKeyRange,
  days: { zone: string; date: string; day: number }[],
): AccountedDayRow[] {
  if (days.length === 0) return [];
  return db.all<AccountedDayRow>(sql`
    WITH d AS MATERIALIZED (
      SELECT value ->> 'zone' AS zone, value ->> 'date' AS date, value ->> 'day' AS day FROM json_each(${JSON.stringify(days)})
    )
    SELECT d.day, sum(l.actual_wh) AS actual_wh, sum(l.expected_wh) AS expected_wh
    FROM systems s CROSS JOIN d ON d.zone = s.timezone
      CROSS JOIN system_losses l ON l.sys = s.sys AND l.date = d.date
    WHERE ${COUNTED} AND s.sys BETWEEN ${range.first} AND ${range.last}
    GROUP BY d.day`);
}
