import { type SQL, sql } from "drizzle-orm";
import type { fleetSystemHourly, fleetSystems } from "../../../schema/fleet-tables";
import type { SqlRow } from "../../../schema/sql-row";
import { localDayOf } from "../../domain/energy/local-day";
import type { FleetDb } from "../db";
import { HOUR_S, newestTimeSql, tablesBetween } from "./points";

/*
 * Hourly and daily rollups. An hour is rolled up once it has closed (its end has passed, or a
 * later point of the system came): `system_hourly` gets its mean power and `system_daily` the
 * highest energy-today counter and power of each plant-local day the hour's points fall in. A
 * system's open hour (its newest point's, until then) is computed from its points when read, by
 * the same aggregate, so every read answers as if the hour were stored. Hours older than 13
 * months are folded into their day and removed.
 */

const HOUR_MS = HOUR_S * 1000;

/** A system-hour to aggregate, with the zone its local days are counted in. */
export interface HourKey {
  sys: number;
  hour: number;
  zone: string;
}

/** One system-hour's rollup: its mean power and samples, and each local day its points gave energy to. */
export interface HourAggregate {
  sys: number;
  hour: number;
  avgPowerW: number | null;
  samples: number;
  /** The local days of its points with an energy counter: the highest counter and power among them. */
  days: { date: string; energyWh: number; peakPowerW: number }[];
}

/** The larger of two values, either of which may be missing (as SQL's aggregate max). */
const maxOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** SQLite's round(): half away from zero. */
const roundSql = (value: number) => Math.sign(value) * Math.floor(Math.abs(value) + 0.5);

/**
 * Each hour's rollup from its points: mean power over the points that have one (as SQLite's avg),
 * samples, and per local day (an hour of a zone with a half-hour offset spans two) the highest
 * energy-today counter and the highest power of the points that carry a counter. Hours without
 * points are left out. Each table is read by its key, one range per system-hour and day.
 */
export function aggregateHours(db: FleetDb, keys: HourKey[]): HourAggregate[] {
  if (keys.length === 0) return [];
  const segments: { sys: number; hour: number; seg: number; from: number; to: number; date: string }[] = [];
  // A zone's hour splits the same way for every system in it (most of a fleet shares a few).
  const splits = new Map<string, { from: number; to: number; date: string }[]>();
  for (const key of keys) {
    const id = `${key.zone}|${key.hour}`;
    let split = splits.get(id);
    if (!split) {
      split = [];
      const start = key.hour * HOUR_MS;
      for (let at = start; at < start + HOUR_MS; ) {
        const day = localDayOf(at, key.zone);
        const to = Math.min(day.endMs, start + HOUR_MS);
        split.push({ from: Math.ceil(at / 1000), to: Math.ceil(to / 1000), date: day.date });
        at = to;
      }
      splits.set(id, split);
    }
    for (const part of split) segments.push({ sys: key.sys, hour: key.hour, seg: segments.length, ...part });
  }
  const fromS = Math.min(...keys.map((k) => k.hour * HOUR_S));
  const toS = Math.max(...keys.map((k) => (k.hour + 1) * HOUR_S - 1));
  const json = JSON.stringify(segments.map((s) => [s.seg, s.sys, s.from, s.to]));
  type SegmentRow = {
    seg: number;
    samples: number;
    power_sum: number | null;
    power_n: number;
    energy_wh: number | null;
    peak_w: number | null;
  };
  // One query per table (the runtime's SQLite takes five terms at most in a compound SELECT),
  // each segment one range of the table's key; a segment's parts from two tables are added up.
  const rows = new Map<number, SegmentRow>();
  for (const table of tablesBetween(db, fromS, toS)) {
    const part = db.all<SegmentRow>(sql`
      WITH o AS MATERIALIZED (
        SELECT j.value ->> 0 AS seg, j.value ->> 1 AS sys, j.value ->> 2 AS from_s, j.value ->> 3 AS to_s
        FROM json_each(${json}) AS j
      )
      SELECT o.seg, count(*) AS samples, sum(r.power_w) AS power_sum, count(r.power_w) AS power_n,
        max(CASE WHEN r.energy_today_wh IS NOT NULL THEN r.energy_today_wh END) AS energy_wh,
        max(CASE WHEN r.energy_today_wh IS NOT NULL THEN coalesce(r.power_w, 0) END) AS peak_w
      FROM o CROSS JOIN ${table} r ON r.sys = o.sys AND r.t >= o.from_s AND r.t < o.to_s
      GROUP BY o.seg`);
    for (const row of part) {
      const current = rows.get(row.seg);
      rows.set(
        row.seg,
        current
          ? {
              seg: row.seg,
              samples: current.samples + row.samples,
              power_sum: (current.power_sum ?? 0) + (row.power_sum ?? 0),
              power_n: current.power_n + row.power_n,
              energy_wh: maxOf(current.energy_wh, row.energy_wh),
              peak_w: maxOf(current.peak_w, row.peak_w),
            }
          : row,
      );
    }
  }
  const bySeg = rows;
  const hours = new Map<string, HourAggregate & { powerSum: number; powerN: number }>();
  for (const segment of segments) {
    const row = bySeg.get(segment.seg);
    if (!row) continue;
    const id = `${segment.sys}|${segment.hour}`;
    const hour = hours.get(id) ?? {
      sys: segment.sys,
      hour: segment.hour,
      avgPowerW: null,
      samples: 0,
      days: [],
      powerSum: 0,
      powerN: 0,
    };
    hour.samples += row.samples;
    hour.powerSum += row.power_sum ?? 0;
    hour.powerN += row.power_n;
    if (row.energy_wh !== null) {
      hour.days.push({
        date: segment.date,
        energyWh: Math.max(0, row.energy_wh),
        peakPowerW: Math.max(0, row.peak_w ?? 0),
      });
    }
    hours.set(id, hour);
  }
  return [...hours.values()].map(({ powerSum, powerN, ...hour }) => ({
    ...hour,
    avgPowerW: powerN === 0 ? null : roundSql(powerSum / powerN),
  }));
}

/**
 * Stores hours' rollups: each hour's mean power, and each local day's highest counter and power
 * where they grow. A row is written only when it changes, so rolling an hour up again writes
 * nothing. Answers the system-days written or confirmed (those with a counter).
 */
export function storeHourRollups(db: FleetDb, hours: HourAggregate[]): number {
  if (hours.length === 0) return 0;
  db.run(sql`
    INSERT INTO system_hourly (sys, hour, avg_power_w, samples)
    SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3
    FROM json_each(${JSON.stringify(hours.map((h) => [h.sys, h.hour, h.avgPowerW, h.samples]))}) AS j WHERE true
    ON CONFLICT (sys, hour) DO UPDATE SET avg_power_w = excluded.avg_power_w, samples = excluded.samples
    WHERE avg_power_w IS NOT excluded.avg_power_w OR samples <> excluded.samples`);
  const days = new Map<string, { sys: number; date: string; energyWh: number; peakPowerW: number }>();
  for (const hour of hours) {
    for (const day of hour.days) {
      const key = `${hour.sys}|${day.date}`;
      const current = days.get(key);
      days.set(key, {
        sys: hour.sys,
        date: day.date,
        energyWh: Math.max(current?.energyWh ?? 0, day.energyWh),
        peakPowerW: Math.max(current?.peakPowerW ?? 0, day.peakPowerW),
      });
    }
  }
  if (days.size === 0) return 0;
  db.run(sql`
    INSERT INTO system_daily (sys, date, energy_wh, peak_power_w)
    SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3
    FROM json_each(${JSON.stringify([...days.values()].map((d) => [d.sys, d.date, d.energyWh, d.peakPowerW]))}) AS j
    WHERE true
    ON CONFLICT (sys, date) DO UPDATE SET energy_wh = max(energy_wh, excluded.energy_wh),
      peak_power_w = max(coalesce(peak_power_w, 0), excluded.peak_power_w)
    WHERE excluded.energy_wh > energy_wh OR peak_power_w IS NULL OR excluded.peak_power_w > peak_power_w`);
  return days.size;
}

/** Which of the listed system-hours have a stored rollup. */
export function storedHours(db: FleetDb, keys: { sys: number; hour: number }[]): Set<string> {
  if (keys.length === 0) return new Set();
  const rows = db.all<Pick<SqlRow<typeof fleetSystemHourly>, "sys" | "hour">>(sql`
    SELECT h.sys, h.hour FROM json_each(${JSON.stringify(keys.map((k) => [k.sys, k.hour]))}) AS k
    CROSS JOIN system_hourly h ON h.sys = k.value ->> 0 AND h.hour = k.value ->> 1`);
  return new Set(rows.map((row) => `${row.sys}|${row.hour}`));
}

type OpenHour = HourAggregate & { zone: string };

/** Open hours read under a name, kept while nothing was written (SQLite's change count). */
const openHoursMemo = new WeakMap<FleetDb, { changes: number; byName: Map<string, OpenHour[]> }>();

/**
 * The open hour of each system `where` picks (on `systems s`): the hour of its newest point when no
 * rollup of it is stored, aggregated from its points as a rollup would be. Reads that name the
 * systems (`memo`, e.g. a range of keys) share the answer until the next write: a fleet series
 * asks the same range for several sums.
 */
export function openHours(db: FleetDb, where: SQL, memo?: string): OpenHour[] {
  if (memo === undefined) return readOpenHours(db, where);
  const changes = db.get<{ n: number }>(sql`SELECT total_changes() AS n`)?.n ?? 0;
  let held = openHoursMemo.get(db);
  if (!held || held.changes !== changes) {
    held = { changes, byName: new Map() };
    openHoursMemo.set(db, held);
  }
  let hours = held.byName.get(memo);
  if (!hours) {
    hours = readOpenHours(db, where);
    held.byName.set(memo, hours);
  }
  return hours;
}

function readOpenHours(db: FleetDb, where: SQL): OpenHour[] {
  const newest = newestTimeSql(db, sql`s.sys`);
  const open = db.all<Pick<SqlRow<typeof fleetSystems>, "sys" | "timezone"> & { hour: number }>(sql`
    SELECT sys, timezone, hour FROM (
      SELECT s.sys, s.timezone, CAST(${newest} / ${sql.raw(String(HOUR_S))} AS INTEGER) AS hour FROM systems s WHERE ${where}
    ) o
    WHERE hour IS NOT NULL AND NOT EXISTS (SELECT 1 FROM system_hourly h WHERE h.sys = o.sys AND h.hour = o.hour)`);
  const zones = new Map(open.map((o) => [o.sys, o.timezone]));
  return aggregateHours(
    db,
    open.map((o) => ({ sys: o.sys, hour: o.hour, zone: o.timezone })),
  ).map((hour) => ({ ...hour, zone: zones.get(hour.sys) ?? "UTC" }));
}

/** A system's daily energy on the listed local dates; a day of its open hour takes that hour's points too. */
export function dailyEnergyOn(db: FleetDb, sys: number, dates: string[]): Map<string, number> {
  const rows = db.all<{ date: string; energy_wh: number }>(sql`
    SELECT date, energy_wh FROM system_daily
    WHERE sys = ${sys} AND date IN (SELECT value FROM json_each(${JSON.stringify(dates)}))`);
  const energy = new Map(rows.map((r) => [r.date, r.energy_wh]));
  const wanted = new Set(dates);
  for (const day of openHours(db, sql`s.sys = ${sys}`).flatMap((h) => h.days)) {
    if (wanted.has(day.date)) energy.set(day.date, Math.max(energy.get(day.date) ?? 0, day.energyWh));
  }
  return energy;
}

/** Open hours as JSON rows [sys, hour, avg_power_w] for a query's common table. */
export const openHoursJson = (hours: HourAggregate[]) =>
  JSON.stringify(hours.map((h) => [h.sys, h.hour, h.avgPowerW]));

/** Open hours' local days as JSON rows [sys, date, energy_wh, peak_power_w] for a query's common table. */
export const openDaysJson = (hours: HourAggregate[]) =>
  JSON.stringify(hours.flatMap((h) => h.days.map((d) => [h.sys, d.date, d.energyWh, d.peakPowerW])));

// -- years of rollups --------------------------------------------------------------------------------

/**
 * Folds hourly rollups of hours before `beforeHour` into their days, system by system from the one
 * after `afterSys`, at most `maxHours` of them: each day (the plant-local date of each hour's
 * start) gains the hours folded, those with a mean power above zero and the energy their power
 * integrates to, and the hours are removed. A day without a stored energy counter gets one from
 * its hours' power. Each system's old hours are one range of the key. Answers the hours folded
 * and the system to go on after (null once every system is done).
 */
export function foldHourlyIntoDays(
  db: FleetDb,
  beforeHour: number,
  maxHours: number,
  afterSys: number,
): { folded: number; next: number | null } {
  let folded = 0;
  let last = afterSys;
  for (;;) {
    const next = db.get<Pick<SqlRow<typeof fleetSystemHourly>, "sys">>(sql`
      SELECT sys FROM system_hourly WHERE sys > ${last} ORDER BY sys LIMIT 1`);
    if (!next) return { folded, next: null };
    const room = maxHours - folded;
    const hours = db.all<Pick<SqlRow<typeof fleetSystemHourly>, "hour" | "avg_power_w">>(sql`
      SELECT hour, avg_power_w FROM system_hourly WHERE sys = ${next.sys} AND hour < ${beforeHour}
      ORDER BY hour LIMIT ${room}`);
    if (hours.length > 0) {
      foldSystemHours(db, next.sys, hours);
      folded += hours.length;
    }
    if (folded >= maxHours) return { folded, next: next.sys - 1 };
    last = next.sys;
  }
}

function foldSystemHours(
  db: FleetDb,
  sys: number,
  hours: Pick<SqlRow<typeof fleetSystemHourly>, "hour" | "avg_power_w">[],
): void {
  const zone =
    db.get<Pick<SqlRow<typeof fleetSystems>, "timezone">>(
      sql`SELECT timezone FROM systems WHERE sys = ${sys}`,
    )?.timezone ?? "UTC";
  const days = new Map<string, { date: string; hours: number; producing: number; powerWh: number }>();
  for (const hour of hours) {
    const date = localDayOf(hour.hour * HOUR_MS, zone).date;
    const day = days.get(date) ?? { date, hours: 0, producing: 0, powerWh: 0 };
    day.hours++;
    if ((hour.avg_power_w ?? 0) > 0) day.producing++;
    day.powerWh += hour.avg_power_w ?? 0;
    days.set(date, day);
  }
  db.run(sql`
    INSERT INTO system_daily (sys, date, energy_wh, peak_power_w, folded_hours, producing_hours, power_wh)
    SELECT ${sys}, j.value ->> 0, max(0, j.value ->> 3), NULL, j.value ->> 1, j.value ->> 2, j.value ->> 3
    FROM json_each(${JSON.stringify([...days.values()].map((d) => [d.date, d.hours, d.producing, d.powerWh]))}) AS j
    WHERE true
    ON CONFLICT (sys, date) DO UPDATE SET folded_hours = coalesce(folded_hours, 0) + excluded.folded_hours,
      producing_hours = coalesce(producing_hours, 0) + excluded.producing_hours,
      power_wh = coalesce(power_wh, 0) + excluded.power_wh`);
  const first = hours[0]?.hour ?? 0;
  const lastHour = hours[hours.length - 1]?.hour ?? 0;
  db.run(sql`DELETE FROM system_hourly WHERE sys = ${sys} AND hour >= ${first} AND hour <= ${lastHour}`);
}
