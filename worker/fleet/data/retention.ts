import { sql } from "drizzle-orm";
import type { fleetSystems } from "../../../schema/fleet-tables";
import type { SqlRow } from "../../../schema/sql-row";
import type { FleetDb } from "../db";
import {
  DAY_S,
  dayTable,
  dropDayTable,
  HOUR_S,
  newestTimeSql,
  type PointRow,
  pointDays,
  unpackInverters,
} from "./points";
import { aggregateHours, foldHourlyIntoDays, storedHours, storeHourRollups } from "./rollups";

export interface RetentionBudget {
  /** Raw points older than this (epoch ms) are removed: systems' and inverters' each their own. */
  beforeMs: { system_readings: number; inverter_readings: number };
  /** Rows removed per run at most, so a backlog is worked off over several runs. */
  maxRows: number;
}

export interface RetentionRun {
  removed: number;
  /** Where the next run continues; null when this pass reached the end. */
  cursor: { table: "points" | "system_readings" | "inverter_readings"; key: number } | null;
}

const LEGACY_TABLES = [
  { table: "system_readings", key: "sys", owners: "systems" },
  { table: "inverter_readings", key: "inv", owners: "inverters" },
] as const;

/**
 * Removes raw points past their retention, and every point of a system D1 no longer has. Days are
 * dropped whole once past the systems' retention, after the live values of the systems whose
 * newest point they hold are kept on their rows (and those systems' open hours rolled up); the
 * inverters' entries are taken out of the days past the inverters' retention when that is
 * shorter. Points stored before the per-day tables are removed key by key, as they were. A run
 * stops once it has removed `maxRows` rows (a day is dropped whole, whatever its size) and
 * answers where the next one goes on. Hourly and daily rollups stay.
 */
export function pruneReadings(
  db: FleetDb,
  budget: RetentionBudget,
  from: RetentionRun["cursor"],
): RetentionRun {
  let removed = 0;
  if (from === null || from.table === "points") {
    removed += pruneDays(db, budget);
    if (removed >= budget.maxRows) return { removed, cursor: { table: "points", key: 0 } };
  }
  const legacy = pruneLegacy(db, { ...budget, maxRows: budget.maxRows - removed }, from);
  return { removed: removed + legacy.removed, cursor: legacy.cursor };
}

/** The days' part of a run: whole days dropped, inverters' entries taken out, removed systems' points deleted. */
function pruneDays(db: FleetDb, budget: RetentionBudget): number {
  const systemCutoff = Math.floor(budget.beforeMs.system_readings / 1000);
  const inverterCutoff = Math.floor(budget.beforeMs.inverter_readings / 1000);
  let removed = 0;
  for (const day of pointDays(db)) {
    if (removed >= budget.maxRows) return removed;
    const end = (day + 1) * DAY_S;
    if (end <= systemCutoff) {
      keepNewest(db, day);
      removed += db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${dayTable(day)}`)?.n ?? 0;
      dropDayTable(db, day);
    } else if (end <= inverterCutoff) {
      keepNewest(db, day);
      removed += stripInverters(db, day, budget.maxRows - removed);
    }
  }
  if (removed < budget.maxRows) removed += deleteRemovedSystems(db, budget.maxRows - removed);
  return removed;
}

/**
 * Keeps, on their rows, the live values of the systems (and their inverters) whose newest point is
 * in the day's table, and rolls up those systems' open hours: the day is about to go.
 */
function keepNewest(db: FleetDb, day: number): void {
  const table = dayTable(day);
  const newest = newestTimeSql(db, sql`d.sys`);
  const rows = db.all<PointRow & Pick<SqlRow<typeof fleetSystems>, "timezone">>(sql`
    SELECT r.sys, r.t, r.power_w, r.energy_today_wh, r.state, r.ms, r.inverters, s.timezone
    FROM (SELECT sys, max(t) AS t FROM ${table} GROUP BY sys) d
    CROSS JOIN ${table} r ON r.sys = d.sys AND r.t = d.t
    CROSS JOIN systems s ON s.sys = d.sys
    WHERE ${newest} = d.t`);
  if (rows.length === 0) return;
  db.run(sql`
    UPDATE systems SET state = j.value ->> 1, power_w = j.value ->> 2, energy_today_wh = j.value ->> 3,
      data_time = j.value ->> 4
    FROM json_each(${JSON.stringify(
      rows.map((r) => [r.sys, r.state, r.power_w, r.energy_today_wh, r.t * 1000 + (r.ms ?? 0)]),
    )}) AS j
    WHERE systems.sys = j.value ->> 0 AND (systems.data_time IS NULL OR systems.data_time < j.value ->> 4)`);
  const inverters = rows.flatMap((r) =>
    unpackInverters(r.t, r.inverters).map(({ entry, at }) => [
      entry[0],
      entry[4],
      entry[1],
      entry[2],
      entry[3] === null ? null : entry[3] / 10,
      at * 1000,
    ]),
  );
  if (inverters.length > 0) {
    db.run(sql`
      UPDATE inverters SET state = j.value ->> 1, power_w = j.value ->> 2, energy_today_wh = j.value ->> 3,
        temperature_c = j.value ->> 4, data_time = j.value ->> 5
      FROM json_each(${JSON.stringify(inverters)}) AS j
      WHERE inverters.inv = j.value ->> 0 AND (inverters.data_time IS NULL OR inverters.data_time < j.value ->> 5)`);
  }
  const hours = rows.map((r) => ({ sys: r.sys, hour: Math.floor(r.t / HOUR_S), zone: r.timezone }));
  const stored = storedHours(db, hours);
  storeHourRollups(
    db,
    aggregateHours(
      db,
      hours.filter((h) => !stored.has(`${h.sys}|${h.hour}`)),
    ),
  );
}

/** Takes the inverters' entries out of a day's points, at most `maxRows` points; answers the entries removed. */
function stripInverters(db: FleetDb, day: number, maxRows: number): number {
  const table = dayTable(day);
  const row = db.get<{ n: number; entries: number | null }>(sql`
    SELECT count(*) AS n, sum(json_array_length(inverters)) AS entries FROM (
      SELECT inverters FROM ${table} WHERE inverters IS NOT NULL LIMIT ${maxRows})`);
  if (!row || row.n === 0) return 0;
  db.run(sql`
    UPDATE ${table} SET inverters = NULL WHERE (sys, t) IN (
      SELECT sys, t FROM ${table} WHERE inverters IS NOT NULL LIMIT ${maxRows})`);
  return row.entries ?? 0;
}

/**
 * Deletes the points of systems D1 no longer has (their keys are missing from `systems`; a key is
 * never given again), each such range of keys one range of each day's key. Answers the rows removed.
 */
function deleteRemovedSystems(db: FleetDb, maxRows: number): number {
  const ranges = missingKeyRanges(db);
  if (ranges.length === 0) return 0;
  let removed = 0;
  for (const day of pointDays(db)) {
    for (const [first, last] of ranges) {
      const room = maxRows - removed;
      if (room <= 0) return removed;
      const rows = db.all(sql`
        DELETE FROM ${dayTable(day)} WHERE (sys, t) IN (
          SELECT sys, t FROM ${dayTable(day)} WHERE sys BETWEEN ${first} AND ${last} LIMIT ${room})
        RETURNING sys`);
      removed += rows.length;
    }
  }
  return removed;
}

/** The ranges of system keys given out but no longer in `systems` (removed systems). */
function missingKeyRanges(db: FleetDb): [number, number][] {
  const keys = db.all<{ sys: number }>(sql`SELECT sys FROM systems ORDER BY sys`).map((r) => r.sys);
  const given =
    db.get<{ seq: number | null }>(sql`SELECT max(seq) AS seq FROM sqlite_sequence WHERE name = 'systems'`)
      ?.seq ?? 0;
  const ranges: [number, number][] = [];
  let next = 1;
  for (const key of [...keys, given + 1]) {
    if (key > next) ranges.push([next, key - 1]);
    next = Math.max(next, key + 1);
  }
  return ranges;
}

/** Points stored before the per-day tables: each key's old points one range of its key, from a cursor. */
function pruneLegacy(db: FleetDb, budget: RetentionBudget, from: RetentionRun["cursor"]): RetentionRun {
  let removed = 0;
  const start = from && from.table !== "points" ? LEGACY_TABLES.findIndex((t) => t.table === from.table) : 0;
  for (let i = Math.max(0, start); i < LEGACY_TABLES.length; i++) {
    const { table, key, owners } = LEGACY_TABLES[i] as (typeof LEGACY_TABLES)[number];
    const beforeS = Math.floor(budget.beforeMs[table] / 1000);
    let last = i === start && from && from.table === table ? from.key : -1;
    for (;;) {
      const next = db.get<{ id: number; owned: number }>(sql`
        SELECT r.${sql.raw(key)} AS id, EXISTS (SELECT 1 FROM ${sql.raw(owners)} o WHERE o.${sql.raw(key)} = r.${sql.raw(key)}) AS owned
        FROM ${sql.raw(table)} r WHERE r.${sql.raw(key)} > ${last} ORDER BY r.${sql.raw(key)} LIMIT 1`);
      if (!next) break;
      const room = budget.maxRows - removed;
      if (room <= 0) return { removed, cursor: { table, key: next.id - 1 } };
      const cutoff = next.owned ? beforeS : Number.MAX_SAFE_INTEGER;
      const old = db.get<{ n: number }>(sql`
        SELECT count(*) AS n FROM (SELECT 1 FROM ${sql.raw(table)} WHERE ${sql.raw(key)} = ${next.id} AND t < ${cutoff} LIMIT ${room})`);
      if (old && old.n > 0) {
        db.run(sql`
          DELETE FROM ${sql.raw(table)} WHERE ${sql.raw(key)} = ${next.id} AND t IN (
            SELECT t FROM ${sql.raw(table)} WHERE ${sql.raw(key)} = ${next.id} AND t < ${cutoff} ORDER BY t LIMIT ${room})`);
        removed += old.n;
      }
      if (removed >= budget.maxRows) return { removed, cursor: { table, key: next.id - 1 } };
      last = next.id;
    }
  }
  return { removed, cursor: null };
}

/** Hourly rollups are kept this long (13 months), then folded into their days. */
export const HOURLY_RETENTION_DAYS = 400;

/**
 * One bounded step of folding hourly rollups older than HOURLY_RETENTION_DAYS at `now` into their
 * days, from the system after `afterSys`: answers the hours folded and where the next step goes on
 * (null when every system is done).
 */
export function foldOldHours(db: FleetDb, now: number, maxHours: number, afterSys: number) {
  const beforeHour = Math.floor((now - HOURLY_RETENTION_DAYS * DAY_S * 1000) / (HOUR_S * 1000));
  return foldHourlyIntoDays(db, beforeHour, maxHours, afterSys);
}
