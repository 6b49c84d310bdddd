import { type SQL, sql } from "drizzle-orm";
import type { fleetInverters, fleetSystemReadings, fleetSystems } from "../../../schema/fleet-tables";
import type { SqlRow } from "../../../schema/sql-row";
import type { FleetDb } from "../db";

/*
 * Raw points, one table per UTC day: `points_<day>` (days since the epoch) with the columns of
 * `system_readings` (schema/fleet-tables.ts), WITHOUT ROWID in (sys, t) order. A table is made
 * when its day's first point is stored and dropped whole once the day is past the retention, so
 * no point is ever deleted row by row (a removed system's aside). Each system point carries its
 * inverters packed (`inverters`), and a system's newest point is its live values.
 *
 * Points stored before this layout stay in `system_readings` (and their inverters' in
 * `inverter_readings`) until the retention has removed them; every read here takes them too.
 */

export const DAY_S = 86_400;
export const HOUR_S = 3_600;
const LEGACY = "system_readings";

export type PointRow = SqlRow<typeof fleetSystemReadings>;

/** An inverter's entry in its system's point: [inv, powerW, energyTodayWh, temperatureDc, state, dt?]. */
export type PackedInverter = [number, number | null, number | null, number | null, number, number?];

export const dayOfSecond = (t: number) => Math.floor(t / DAY_S);
const tableName = (day: number) => `points_${day}`;
const tableSql = (name: string): SQL => sql`${sql.identifier(name)}`;
export const dayTable = (day: number) => tableSql(tableName(day));

/** Which tables hold points: the days that have one (oldest first), and whether the older layout holds any. */
interface PointTables {
  days: number[];
  legacy: boolean;
}

/*
 * The point tables are read from SQLite's schema once per turn of the object (until its next
 * await): a read asks for them several times in one synchronous run (a system's analytics five),
 * and no other call can run in between. A change to them in the turn (a day's table made or
 * dropped, older points imported) stops the reuse until the turn ends, since a transaction that
 * rolls back takes its new table with it.
 */
const tablesThisTurn = new WeakMap<FleetDb, PointTables>();
const changedThisTurn = new WeakSet<FleetDb>();

function pointTables(db: FleetDb): PointTables {
  const held = tablesThisTurn.get(db);
  if (held) return held;
  const tables: PointTables = {
    days: db
      .all<{ name: string }>(
        sql`SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB 'points_[0-9]*'`,
      )
      .map((row) => Number(row.name.slice("points_".length)))
      .sort((a, b) => a - b),
    legacy: (db.get<{ n: number }>(sql`SELECT EXISTS (SELECT 1 FROM system_readings) AS n`)?.n ?? 0) === 1,
  };
  if (!changedThisTurn.has(db)) {
    tablesThisTurn.set(db, tables);
    queueMicrotask(() => tablesThisTurn.delete(db));
  }
  return tables;
}

/** Called by every change to the point tables: the rest of the turn reads them from the schema. */
export function pointTablesChanged(db: FleetDb): void {
  tablesThisTurn.delete(db);
  if (changedThisTurn.has(db)) return;
  changedThisTurn.add(db);
  queueMicrotask(() => changedThisTurn.delete(db));
}

/** The days that have a table, oldest first. */
export function pointDays(db: FleetDb): number[] {
  return [...pointTables(db).days];
}

/** Whether points stored before the per-day tables remain. */
export function hasLegacyPoints(db: FleetDb): boolean {
  return pointTables(db).legacy;
}

/** Whether inverter points stored before they were packed remain. */
export function hasLegacyInverterPoints(db: FleetDb): boolean {
  return (db.get<{ n: number }>(sql`SELECT EXISTS (SELECT 1 FROM inverter_readings) AS n`)?.n ?? 0) === 1;
}

/** Makes the table of a day (the first point of a day makes it). */
export function ensureDayTable(db: FleetDb, day: number): void {
  pointTablesChanged(db);
  db.run(sql`
    CREATE TABLE IF NOT EXISTS ${dayTable(day)} (
      sys integer NOT NULL,
      t integer NOT NULL,
      power_w integer,
      energy_today_wh integer,
      state integer NOT NULL,
      ms integer,
      inverters text,
      PRIMARY KEY (sys, t)
    ) WITHOUT ROWID`);
}

export function dropDayTable(db: FleetDb, day: number): void {
  pointTablesChanged(db);
  db.run(sql`DROP TABLE IF EXISTS ${dayTable(day)}`);
}

/** The tables that may hold points with times in [fromS, toS]: the days' and the older layout's while it holds any. */
export function tablesBetween(db: FleetDb, fromS: number, toS: number): SQL[] {
  const first = dayOfSecond(fromS);
  const last = dayOfSecond(toS);
  const tables = pointDays(db)
    .filter((day) => day >= first && day <= last)
    .map(dayTable);
  return hasLegacyPoints(db) ? [tableSql(LEGACY), ...tables] : tables;
}

/** Every table holding points, newest day first, the older layout's last (while it holds any). */
function tablesNewestFirst(db: FleetDb): SQL[] {
  const tables = pointDays(db).reverse().map(dayTable);
  return hasLegacyPoints(db) ? [...tables, tableSql(LEGACY)] : tables;
}

/** Arguments per coalesce() call: the runtime's SQLite takes at most 127 a function. */
const COALESCE_ARGS = 100;

/** coalesce() over any number of expressions, nested in calls of at most COALESCE_ARGS arguments. */
function coalesceAll(args: SQL[]): SQL {
  if (args.length === 1) return args[0] as SQL;
  if (args.length <= COALESCE_ARGS) return sql`coalesce(${sql.join(args, sql`, `)})`;
  const groups: SQL[] = [];
  for (let i = 0; i < args.length; i += COALESCE_ARGS)
    groups.push(coalesceAll(args.slice(i, i + COALESCE_ARGS)));
  return coalesceAll(groups);
}

/**
 * A system's newest point as a JSON array [t, ms, state, power_w, energy_today_wh, inverters], for
 * the system key `sys` (a column of the outer query): the newest day's table is asked first and
 * the search stops at the first that has a point (coalesce evaluates its arguments in order).
 */
function newestPointSql(tables: SQL[], sys: SQL): SQL {
  if (tables.length === 0) return sql`NULL`;
  return coalesceAll(
    tables.map(
      (table) => sql`(SELECT json_array(t, ms, state, power_w, energy_today_wh, json(inverters)) FROM ${table}
        WHERE sys = ${sys} ORDER BY t DESC LIMIT 1)`,
    ),
  );
}

/** A system's newest point's time (epoch seconds), for the system key `sys` of the outer query. */
export function newestTimeSql(db: FleetDb, sys: SQL): SQL {
  const tables = tablesNewestFirst(db);
  if (tables.length === 0) return sql`NULL`;
  return coalesceAll(tables.map((table) => sql`(SELECT max(t) FROM ${table} WHERE sys = ${sys})`));
}

/** A system's live values: its newest point's when at least as new as those kept on its row, else those. */
export interface LiveRow {
  sys: number;
  state: number | null;
  power_w: number | null;
  energy_today_wh: number | null;
  /** Vendor data time, epoch ms. */
  data_time: number | null;
  /** The newest point's inverters (each inverter's latest entry) when the point holds; null when the kept values do. */
  inverters: PackedInverter[] | null;
}

/**
 * The live values of the systems `where` picks (on `systems s`), by key: each system's newest
 * point (its time found newest day first, then the point read by key from its day's table),
 * unless the values kept on its row are newer (a system whose points are gone). Two reads per
 * table holding a newest point, whatever the fleet's size. The inverters' entries are read only
 * when asked for (`withInverters`).
 */
export function liveRowsOf(db: FleetDb, where: SQL, withInverters = false): Map<number, LiveRow> {
  const rows = db.all<KeptSystemLive & { newest: number | null }>(sql`
    SELECT s.sys, s.state, s.power_w, s.energy_today_wh, s.data_time, ${newestTimeSql(db, sql`s.sys`)} AS newest
    FROM systems s WHERE ${where}`);
  const live = new Map<number, LiveRow>(
    rows.map((row) => [
      row.sys,
      {
        sys: row.sys,
        state: row.state,
        power_w: row.power_w,
        energy_today_wh: row.energy_today_wh,
        data_time: row.data_time,
        inverters: null,
      },
    ]),
  );
  const wanted = rows.filter(
    (row) => row.newest !== null && (row.data_time === null || (row.newest + 1) * 1000 > row.data_time),
  );
  if (wanted.length === 0) return live;
  const days = new Set(pointDays(db));
  const byTable = new Map<string, [number, number][]>();
  for (const row of wanted) {
    const day = dayOfSecond(row.newest ?? 0);
    const table = days.has(day) ? tableName(day) : LEGACY;
    const list = byTable.get(table) ?? [];
    list.push([row.sys, row.newest ?? 0]);
    byTable.set(table, list);
  }
  const found = new Set<number>();
  const read = (table: string, keys: [number, number][]) => {
    const points = db.all<PointRow>(sql`
      SELECT r.sys, r.t, r.power_w, r.energy_today_wh, r.state, r.ms, ${withInverters ? sql`r.inverters` : sql`NULL`} AS inverters
      FROM json_each(${JSON.stringify(keys)}) AS k
      CROSS JOIN ${tableSql(table)} r ON r.sys = k.value ->> 0 AND r.t = k.value ->> 1`);
    for (const point of points) {
      found.add(point.sys);
      const kept = live.get(point.sys);
      const time = point.t * 1000 + (point.ms ?? 0);
      if (!kept || (kept.data_time !== null && kept.data_time > time)) continue;
      live.set(point.sys, {
        sys: point.sys,
        state: point.state,
        power_w: point.power_w,
        energy_today_wh: point.energy_today_wh,
        data_time: time,
        inverters: point.inverters === null ? [] : (JSON.parse(point.inverters) as PackedInverter[]),
      });
    }
  };
  for (const [table, keys] of byTable) read(table, keys);
  // A newest time from the older layout on a day that also has a table.
  const missing = wanted
    .filter((row) => !found.has(row.sys))
    .map((row): [number, number] => [row.sys, row.newest ?? 0]);
  if (missing.length > 0 && hasLegacyPoints(db)) read(LEGACY, missing);
  return live;
}

/** A system's newest point, with its inverters unpacked (times absolute, epoch seconds). */
export interface NewestPoint {
  t: number;
  ms: number | null;
  state: number;
  powerW: number | null;
  energyTodayWh: number | null;
  inverters: { entry: PackedInverter; at: number }[];
}

/** The newest point of each listed system that has one. */
export function newestPoints(db: FleetDb, sysList: number[]): Map<number, NewestPoint> {
  const found = new Map<number, NewestPoint>();
  if (sysList.length === 0) return found;
  const newest = newestPointSql(tablesNewestFirst(db), sql`k.value`);
  const rows = db.all<{ sys: number; j: string | null }>(sql`
    SELECT k.value AS sys, ${newest} AS j FROM json_each(${JSON.stringify(sysList)}) AS k`);
  for (const row of rows) {
    if (row.j === null) continue;
    const [t, ms, state, powerW, energyTodayWh, inverters] = JSON.parse(row.j) as [
      number,
      number | null,
      number,
      number | null,
      number | null,
      PackedInverter[] | null,
    ];
    found.set(row.sys, {
      t,
      ms,
      state,
      powerW,
      energyTodayWh,
      inverters: (inverters ?? []).map((entry) => ({ entry, at: t + (entry[5] ?? 0) })),
    });
  }
  return found;
}

export type KeptSystemLive = Pick<
  SqlRow<typeof fleetSystems>,
  "sys" | "state" | "power_w" | "energy_today_wh" | "data_time"
>;
export type KeptInverterLive = Pick<
  SqlRow<typeof fleetInverters>,
  "inv" | "sys" | "state" | "power_w" | "energy_today_wh" | "temperature_c" | "data_time"
>;

/** The live values kept on the listed systems' inverters' rows (those that have any). */
export function keptInverterLive(db: FleetDb, sysList: number[]): KeptInverterLive[] {
  if (sysList.length === 0) return [];
  return db.all<KeptInverterLive>(sql`
    SELECT inv, sys, state, power_w, energy_today_wh, temperature_c, data_time FROM inverters
    WHERE sys IN (SELECT value FROM json_each(${JSON.stringify(sysList)})) AND data_time IS NOT NULL`);
}

/** The listed (sys, t) points that are stored, from the tables of their days (and the older layout's). */
export function storedPoints(db: FleetDb, keys: { sys: number; t: number }[]) {
  const found: (PointRow & { table: string })[] = [];
  if (keys.length === 0) return found;
  const existing = new Set(pointDays(db));
  const byTable = new Map<string, { sys: number; t: number }[]>();
  for (const key of keys) {
    const day = dayOfSecond(key.t);
    if (!existing.has(day)) continue;
    const list = byTable.get(tableName(day)) ?? [];
    list.push(key);
    byTable.set(tableName(day), list);
  }
  if (hasLegacyPoints(db)) byTable.set(LEGACY, keys);
  for (const [table, list] of byTable) {
    const rows = db.all<PointRow>(sql`
      SELECT r.sys, r.t, r.power_w, r.energy_today_wh, r.state, r.ms, r.inverters
      FROM json_each(${JSON.stringify(list.map((k) => [k.sys, k.t]))}) AS k
      CROSS JOIN ${sql.identifier(table)} r ON r.sys = k.value ->> 0 AND r.t = k.value ->> 1`);
    for (const row of rows) found.push({ ...row, table });
  }
  return found;
}

/** Inserts points into the tables of their days (made when missing); a stored (sys, t) is kept. */
export function insertPoints(db: FleetDb, rows: PointRow[]): void {
  const byDay = new Map<number, PointRow[]>();
  for (const row of rows) {
    const day = dayOfSecond(row.t);
    const list = byDay.get(day) ?? [];
    list.push(row);
    byDay.set(day, list);
  }
  for (const [day, list] of byDay) {
    ensureDayTable(db, day);
    db.run(sql`
      INSERT INTO ${dayTable(day)} (sys, t, power_w, energy_today_wh, state, ms, inverters)
      SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, j.value ->> 5, j.value ->> 6
      FROM json_each(${JSON.stringify(list.map(pointArray))}) AS j WHERE true
      ON CONFLICT (sys, t) DO NOTHING`);
  }
}

/** Rewrites stored points (their values or packed inverters changed) in the tables they are in. */
export function updatePoints(db: FleetDb, rows: (PointRow & { table: string })[]): void {
  const byTable = new Map<string, PointRow[]>();
  for (const { table, ...row } of rows) {
    const list = byTable.get(table) ?? [];
    list.push(row);
    byTable.set(table, list);
  }
  for (const [table, list] of byTable) {
    const target = sql.identifier(table);
    db.run(sql`
      UPDATE ${target} SET power_w = j.value ->> 2, energy_today_wh = j.value ->> 3, state = j.value ->> 4,
        ms = j.value ->> 5, inverters = j.value ->> 6
      FROM json_each(${JSON.stringify(list.map(pointArray))}) AS j
      WHERE ${target}.sys = j.value ->> 0 AND ${target}.t = j.value ->> 1`);
  }
}

const pointArray = (row: PointRow) => [
  row.sys,
  row.t,
  row.power_w,
  row.energy_today_wh,
  row.state,
  row.ms,
  row.inverters,
];

/**
 * Rows read from every table holding times in [fromS, toS] by `read` (one query per table: the
 * runtime's SQLite takes at most five terms in a compound SELECT), in table order (the older
 * layout's first, then day by day), sorted by `compare` when given.
 */
export function readAcross<T>(
  db: FleetDb,
  fromS: number,
  toS: number,
  read: (table: SQL) => SQL,
  compare?: (a: T, b: T) => number,
): T[] {
  const rows = tablesBetween(db, fromS, toS).flatMap((table) => db.all<T>(read(table)));
  return compare ? rows.sort(compare) : rows;
}

/** Unpacks a point's inverters (JSON text) with their absolute times (epoch seconds). */
export function unpackInverters(t: number, packed: string | null): { entry: PackedInverter; at: number }[] {
  if (packed === null) return [];
  return (JSON.parse(packed) as PackedInverter[]).map((entry) => ({ entry, at: t + (entry[5] ?? 0) }));
}

/** Packs inverters' entries for a point at `t` (their times absolute, epoch seconds); null for none. */
export function packInverters(t: number, inverters: { entry: PackedInverter; at: number }[]): string | null {
  if (inverters.length === 0) return null;
  const entries = [...inverters]
    .sort((a, b) => a.entry[0] - b.entry[0])
    .map(({ entry, at }) => {
      const [inv, powerW, energyTodayWh, temperatureDc, state] = entry;
      const packed: PackedInverter = [inv, powerW, energyTodayWh, temperatureDc, state];
      if (at !== t) packed.push(at - t);
      return packed;
    });
  return JSON.stringify(entries);
}

/** Every point held, in (sys, t) order, with the table it is in (tools and tests). */
export function allPoints(db: FleetDb): (PointRow & { table: string })[] {
  const tables = [...(hasLegacyPoints(db) ? [LEGACY] : []), ...pointDays(db).map(tableName)];
  const rows: (PointRow & { table: string })[] = [];
  for (const table of tables) {
    for (const row of db.all<PointRow>(sql`
      SELECT sys, t, power_w, energy_today_wh, state, ms, inverters FROM ${tableSql(table)}`)) {
      rows.push({ ...row, table });
    }
  }
  return rows.sort((a, b) => a.sys - b.sys || a.t - b.t);
}

/** How far outside a window points are read for their inverters' entries (an inverter's time may trail its system's). */
const INVERTER_TIME_MARGIN_S = 3_600;

/** One system's points with times in [fromS, toS] (epoch seconds, both included), oldest first, by key. */
export function systemPointsBetween(db: FleetDb, sys: number, fromS: number, toS: number) {
  return readAcross<Pick<PointRow, "t" | "power_w" | "state">>(
    db,
    fromS,
    toS,
    (table) =>
      sql`SELECT t, power_w, state FROM ${table} WHERE sys = ${sys} AND t >= ${fromS} AND t <= ${toS}`,
    (a, b) => a.t - b.t,
  );
}

/** An inverter's point: its own time (epoch seconds), power and stored state. */
export interface InverterPointRow {
  inv: number;
  t: number;
  power_w: number | null;
  state: number;
}

/**
 * The inverters' points with their own times in [fromS, toS] (epoch seconds, both included) of the
 * listed systems, oldest first: unpacked from the systems' points (read a margin wider, as an
 * inverter's time may trail its system's) and each taken once (a newest point carries an
 * inverter's latest entry, which its own point holds too), with those stored before the packing.
 */
export function inverterPointsBetween(
  db: FleetDb,
  sysList: number[],
  fromS: number,
  toS: number,
): InverterPointRow[] {
  if (sysList.length === 0) return [];
  const systems = JSON.stringify(sysList);
  const from = fromS - INVERTER_TIME_MARGIN_S;
  const to = toS + INVERTER_TIME_MARGIN_S;
  const packed = readAcross<Pick<PointRow, "t" | "inverters">>(
    db,
    from,
    to,
    (table) => sql`
      SELECT t, inverters FROM ${table}
      WHERE sys IN (SELECT value FROM json_each(${systems})) AND t >= ${from} AND t <= ${to} AND inverters IS NOT NULL`,
    (a, b) => a.t - b.t,
  );
  const seen = new Set<string>();
  const found: InverterPointRow[] = [];
  const add = (row: InverterPointRow) => {
    const key = `${row.inv}|${row.t}`;
    if (row.t < fromS || row.t > toS || seen.has(key)) return;
    seen.add(key);
    found.push(row);
  };
  for (const point of packed) {
    for (const { entry, at } of unpackInverters(point.t, point.inverters)) {
      add({ inv: entry[0], t: at, power_w: entry[1], state: entry[4] });
    }
  }
  if (hasLegacyInverterPoints(db)) {
    const rows = db.all<InverterPointRow>(sql`
      SELECT r.inv, r.t, r.power_w, r.state FROM inverters i CROSS JOIN inverter_readings r
        ON r.inv = i.inv AND r.t >= ${fromS} AND r.t <= ${toS}
      WHERE i.sys IN (SELECT value FROM json_each(${systems}))`);
    for (const row of rows) add(row);
  }
  return found.sort((a, b) => a.t - b.t);
}
