import { type SQL, sql } from "drizzle-orm";
import type { SystemState } from "../../../schema/domain";
import type {
  fleetInverters,
  fleetSystemDaily,
  fleetSystemHourly,
  fleetSystemReadings,
  fleetSystems,
} from "../../../schema/fleet-tables";
import type { SqlRow } from "../../../schema/sql-row";
import { yieldTurn } from "../../lib/yield-turn";
import type { FleetDb } from "../db";
import { fromStoredState } from "../state";
import type { LiveValues } from "../types";
import {
  hasLegacyInverterPoints,
  hasLegacyPoints,
  type LiveRow,
  liveRowsOf,
  pointDays,
  readAcross,
} from "./points";
import { openHours } from "./rollups";

type SystemColumns = SqlRow<typeof fleetSystems>;

/** A system as the fleet store reads it: its D1 id as `id`, its state by name (fleet/state.ts). */
export type SystemMetricRow = Pick<
  SystemColumns,
  | "name"
  | "provider"
  | "provider_system_id"
  | "capacity_w"
  | "power_w"
  | "energy_today_wh"
  | "data_time"
  | "site_id"
  | "site_name"
  | "site_capacity_kw"
  | "address"
  | "latitude"
  | "longitude"
  | "timezone"
  | "location_key"
> & { id: SystemColumns["system_id"]; state: SystemState };

/** An inverter with its system's D1 id and its state by name. */
export type InverterMetricRow = Pick<SystemColumns, "system_id"> &
  Pick<SqlRow<typeof fleetInverters>, "serial" | "power_w" | "energy_today_wh" | "temperature_c"> & {
    state: SystemState;
  };

/** The systems and their inverters, as the fleet store reads them (below). */
export interface MetricRows {
  systems: SystemMetricRow[];
  inverters: InverterMetricRow[];
}

const HOUR_MS = 3_600_000;

/** A point or an hour of power at its start (epoch ms). */
type PowerAt = { time: number; power_w: SqlRow<typeof fleetSystemReadings>["power_w"] };

const SYSTEM_METRIC_COLUMNS =
  sql.raw(`s.sys, s.system_id AS id, s.name, s.provider, s.provider_system_id, s.capacity_w,
  s.site_id, s.site_name, s.site_capacity_kw, s.address, s.latitude, s.longitude, s.timezone, s.location_key`);

const stateName = (state: number | null): SystemState => fromStoredState(state) ?? "offline";

/** Systems with their live values (see liveRowsOf), `where` on `systems s`, in `order`. */
function systemMetricRows(db: FleetDb, where: SQL, live: Map<number, LiveRow>, order: SQL = sql``) {
  return db
    .all<Omit<SystemMetricRow, "state" | "power_w" | "energy_today_wh" | "data_time"> & { sys: number }>(
      sql`SELECT ${SYSTEM_METRIC_COLUMNS} FROM systems s WHERE ${where} ${order}`,
    )
    .map(({ sys, ...row }): SystemMetricRow => {
      const values = live.get(sys);
      return {
        ...row,
        state: stateName(values?.state ?? null),
        power_w: values?.power_w ?? null,
        energy_today_wh: values?.energy_today_wh ?? null,
        data_time: values?.data_time ?? null,
      };
    });
}

/**
 * The inverters of the systems `where` picks (on `systems s`), in `order`, with their live values:
 * their entry in their system's newest point, else the values kept on their row.
 */
function inverterMetricRows(db: FleetDb, where: SQL, live: Map<number, LiveRow>, order: SQL) {
  const rows = db.all<
    Pick<
      SqlRow<typeof fleetInverters>,
      "inv" | "sys" | "serial" | "state" | "power_w" | "energy_today_wh" | "temperature_c"
    > &
      Pick<SystemColumns, "system_id">
  >(sql`
    SELECT i.inv, i.sys, s.system_id, i.serial, i.state, i.power_w, i.energy_today_wh, i.temperature_c
    FROM systems s CROSS JOIN inverters i ON i.sys = s.sys WHERE ${where} ${order}`);
  return rows.map((row): InverterMetricRow => {
    const entry = live.get(row.sys)?.inverters?.find((e) => e[0] === row.inv);
    return entry
      ? {
          system_id: row.system_id,
          serial: row.serial,
          state: stateName(entry[4]),
          power_w: entry[1],
          energy_today_wh: entry[2],
          temperature_c: entry[3] === null ? null : entry[3] / 10,
        }
      : {
          system_id: row.system_id,
          serial: row.serial,
          state: stateName(row.state),
          power_w: row.power_w,
          energy_today_wh: row.energy_today_wh,
          temperature_c: row.temperature_c,
        };
  });
}

/** Systems read per turn of the store's event loop when the whole fleet is read. */
const FLEET_READ_SLICE_SYSTEMS = 1_000;

/** A range of system keys, both ends included. */
export interface SystemKeyRange {
  first: number;
  last: number;
}

/** The store's system keys in ranges of `size` (FLEET_READ_SLICE_SYSTEMS), for reads of the whole fleet a slice per turn. */
export function systemKeyRanges(db: FleetDb, size = FLEET_READ_SLICE_SYSTEMS): SystemKeyRange[] {
  const lastSys = db.get<{ last: number | null }>(sql`SELECT max(sys) AS last FROM systems`)?.last ?? 0;
  const ranges: SystemKeyRange[] = [];
  for (let first = 1; first <= lastSys; first += size) {
    ranges.push({ first, last: Math.min(lastSys, first + size - 1) });
  }
  return ranges;
}

/**
 * Every system with its inverters, in slices of consecutive keys, each read in one step (a
 * system's row and its inverters together) with a turn of the event loop between slices: read
 * whole, a 20,000-system fleet held the store ~160 ms, and every sync page or read waited it out.
 * Slices are in key order; the caller orders the systems.
 */
export async function readFleetMetricSlices(db: FleetDb): Promise<MetricRows[]> {
  const slices: MetricRows[] = [];
  for (const [index, { first, last }] of systemKeyRanges(db).entries()) {
    if (index > 0) await yieldTurn();
    const range = sql`s.sys BETWEEN ${first} AND ${last}`;
    const live = liveRowsOf(db, range, true);
    slices.push({
      systems: systemMetricRows(db, range, live),
      inverters: inverterMetricRows(
        db,
        sql`i.sys BETWEEN ${first} AND ${last}`,
        live,
        sql`ORDER BY i.sys, i.serial`,
      ),
    });
  }
  return slices;
}

/** One system by its id, or the systems of the site with that id, with their inverters. */
export function readMetricRows(db: FleetDb, systemOrSiteId: string): MetricRows {
  // One system by its id, else a site's systems: each an index lookup, never a scan of the fleet.
  const keys = db.all<Pick<SystemColumns, "sys">>(sql`
    SELECT sys FROM systems WHERE system_id = ${systemOrSiteId}
    UNION SELECT sys FROM systems WHERE site_id = ${systemOrSiteId}`);
  const sysList = JSON.stringify(keys.map((k) => k.sys));
  const picked = sql`s.sys IN (SELECT value FROM json_each(${sysList}))`;
  const live = liveRowsOf(db, picked, true);
  return {
    systems: systemMetricRows(
      db,
      picked,
      live,
      sql`ORDER BY coalesce(s.site_name, s.name), s.name, s.system_id`,
    ),
    inverters: inverterMetricRows(
      db,
      sql`i.sys IN (SELECT value FROM json_each(${sysList}))`,
      live,
      sql`ORDER BY i.serial`,
    ),
  };
}

/**
 * The site's system whose record stands for the site (readMetricRows' order within a site: by
 * name, then id) among those held here; null when none is.
 */
export function siteFirstSystem(db: FleetDb, siteId: string): { name: string; systemId: string } | null {
  return (
    db.get<{ name: string; systemId: string }>(sql`
      SELECT name, system_id AS systemId FROM systems WHERE site_id = ${siteId}
      ORDER BY name, system_id LIMIT 1`) ?? null
  );
}

/** Whether the store holds the system (by its D1 id). */
export const holdsSystem = (db: FleetDb, systemId: string) => sysOf(db, systemId) !== null;

/** A system's key by its D1 id (null when the store does not know it). */
function sysOf(db: FleetDb, systemId: string): number | null {
  return (
    db.get<Pick<SystemColumns, "sys">>(sql`SELECT sys FROM systems WHERE system_id = ${systemId}`)?.sys ??
    null
  );
}

/** Raw points of one system in [from, to] (epoch ms), from each day's table by key. */
export function powerReadings(db: FleetDb, systemId: string, fromMs: number, toMs: number): PowerAt[] {
  const sys = sysOf(db, systemId);
  if (sys === null) return [];
  const fromS = Math.ceil(fromMs / 1000);
  const toS = Math.floor(toMs / 1000);
  return readAcross<PowerAt>(
    db,
    fromS,
    toS,
    (table) =>
      sql`SELECT t * 1000 AS time, power_w FROM ${table} WHERE sys = ${sys} AND t >= ${fromS} AND t <= ${toS}`,
    (a, b) => a.time - b.time,
  );
}

type HourlyPowerRow = { time: number; power_w: SqlRow<typeof fleetSystemHourly>["avg_power_w"] };

/** Hourly mean power of one system for hours starting in [from, to]; its open hour computed from its points. */
export function hourlyPower(db: FleetDb, systemId: string, fromMs: number, toMs: number): HourlyPowerRow[] {
  const first = Math.ceil(fromMs / HOUR_MS);
  const last = Math.floor(toMs / HOUR_MS);
  const rows = db.all<HourlyPowerRow>(sql`
    SELECT h.hour * ${HOUR_MS} AS time, h.avg_power_w AS power_w FROM systems s CROSS JOIN system_hourly h ON h.sys = s.sys
    WHERE s.system_id = ${systemId} AND h.hour >= ${first} AND h.hour <= ${last}
    ORDER BY h.hour`);
  const open = openHours(db, sql`s.system_id = ${systemId}`).filter((h) => h.hour >= first && h.hour <= last);
  if (open.length === 0) return rows;
  return [...rows, ...open.map((h) => ({ time: h.hour * HOUR_MS, power_w: h.avgPowerW }))].sort(
    (a, b) => a.time - b.time,
  );
}

type DailyRow = Pick<SqlRow<typeof fleetSystemDaily>, "date" | "energy_wh" | "peak_power_w">;

/** One system's days from `fromDate` to `toDate`; the days of its open hour take that hour's points too. */
export function dailyEnergy(db: FleetDb, systemId: string, fromDate: string, toDate: string): DailyRow[] {
  const rows = db.all<DailyRow>(sql`
    SELECT d.date, d.energy_wh, d.peak_power_w FROM systems s CROSS JOIN system_daily d ON d.sys = s.sys
    WHERE s.system_id = ${systemId} AND d.date >= ${fromDate} AND d.date <= ${toDate} ORDER BY d.date`);
  const open = openHours(db, sql`s.system_id = ${systemId}`).flatMap((h) => h.days);
  const days = open.filter((d) => d.date >= fromDate && d.date <= toDate);
  if (days.length === 0) return rows;
  const byDate = new Map(rows.map((row) => [row.date, { ...row }]));
  for (const day of days) {
    const row = byDate.get(day.date);
    byDate.set(day.date, {
      date: day.date,
      energy_wh: Math.max(row?.energy_wh ?? 0, day.energyWh),
      peak_power_w: Math.max(row?.peak_power_w ?? 0, day.peakPowerW),
    });
  }
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** Mean power per UTC hour summed over the given systems, for hours starting in [start, end). */
export function summedHourlyPower(db: FleetDb, systemIds: string[], startMs: number, endMs: number) {
  const first = Math.ceil(startMs / HOUR_MS);
  const end = Math.ceil(endMs / HOUR_MS);
  const rows = db.all<{ hour_start: number; power_w: SqlRow<typeof fleetSystemHourly>["avg_power_w"] }>(sql`
    SELECT h.hour * ${HOUR_MS} AS hour_start, sum(h.avg_power_w) AS power_w
    FROM systems s CROSS JOIN system_hourly h ON h.sys = s.sys
      AND h.hour >= ${first} AND h.hour < ${end}
    WHERE s.system_id IN (SELECT value FROM json_each(${JSON.stringify(systemIds)}))
    GROUP BY h.hour`);
  const open = openHours(
    db,
    sql`s.system_id IN (SELECT value FROM json_each(${JSON.stringify(systemIds)}))`,
  ).filter((h) => h.hour >= first && h.hour < end);
  if (open.length === 0) return rows;
  const byHour = new Map(rows.map((row) => [row.hour_start, { ...row }]));
  for (const hour of open) {
    const start = hour.hour * HOUR_MS;
    const row = byHour.get(start);
    const power = hour.avgPowerW;
    byHour.set(start, {
      hour_start: start,
      power_w: row?.power_w == null ? power : power === null ? row.power_w : row.power_w + power,
    });
  }
  return [...byHour.values()];
}

type LiveColumns = Pick<SystemColumns, "system_id" | "state" | "power_w" | "energy_today_wh" | "data_time">;

/** Live values of the systems `where` picks (on `systems s`). */
function liveRows(db: FleetDb, where: SQL): LiveColumns[] {
  const live = liveRowsOf(db, where);
  return db
    .all<Pick<SystemColumns, "sys" | "system_id">>(
      sql`SELECT s.sys, s.system_id FROM systems s WHERE ${where}`,
    )
    .map((row) => {
      const values = live.get(row.sys);
      return {
        system_id: row.system_id,
        state: (values?.state ?? null) as LiveColumns["state"],
        power_w: values?.power_w ?? null,
        energy_today_wh: values?.energy_today_wh ?? null,
        data_time: values?.data_time ?? null,
      };
    });
}

export function liveValues(db: FleetDb, systemIds: string[]): LiveValues[] {
  return liveRows(db, sql`s.system_id IN (SELECT value FROM json_each(${JSON.stringify(systemIds)}))`).map(
    (r) => ({
      systemId: r.system_id,
      state: fromStoredState(r.state),
      powerW: r.power_w,
      energyTodayWh: r.energy_today_wh,
      dataTime: r.data_time,
    }),
  );
}

/**
 * Row counts: what the store holds (the benchmark's per-row costs). System points over every
 * day's table and the older layout; inverter points are the entries packed in them (a newest
 * point's entries carried from an older one included) and the older layout's rows.
 */
export function tableRowCounts(db: FleetDb) {
  const count = (table: string) =>
    db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.identifier(table)}`)?.n ?? 0;
  const days = pointDays(db);
  let points = hasLegacyPoints(db) ? count("system_readings") : 0;
  let packed = hasLegacyInverterPoints(db) ? count("inverter_readings") : 0;
  for (const day of days) {
    const row = db.get<{ n: number; inverters: number | null }>(sql`
      SELECT count(*) AS n, sum(json_array_length(inverters)) AS inverters FROM ${sql.identifier(`points_${day}`)}`);
    points += row?.n ?? 0;
    packed += row?.inverters ?? 0;
  }
  return {
    systems: count("systems"),
    inverters: count("inverters"),
    systemReadings: points,
    inverterReadings: packed,
    pointDays: days.length,
    hourly: count("system_hourly"),
    daily: count("system_daily"),
  };
}

/** Every system's live values (the site lists' read model joins them with D1's systems). */
export function allLiveValues(db: FleetDb): Omit<LiveValues, "state">[] {
  return liveRows(db, sql`true`).map((r) => ({
    systemId: r.system_id,
    powerW: r.power_w,
    energyTodayWh: r.energy_today_wh,
    dataTime: r.data_time,
  }));
}
