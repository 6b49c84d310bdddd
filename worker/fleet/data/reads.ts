import { sql } from "drizzle-orm";
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
import { fromStoredState, stateNameSql } from "../state";
import type { LiveValues } from "../types";

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
  sql.raw(`s.system_id AS id, s.name, s.provider, s.provider_system_id, s.capacity_w,
  ${stateNameSql("s.state")} AS state, s.power_w, s.energy_today_wh, s.data_time, s.site_id, s.site_name,
  s.site_capacity_kw, s.address, s.latitude, s.longitude, s.timezone, s.location_key`);

const INVERTER_METRIC_COLUMNS =
  sql.raw(`s.system_id, i.serial, ${stateNameSql("i.state")} AS state, i.power_w,
  i.energy_today_wh, i.temperature_c`);

/** Systems read per turn of the store's event loop when the whole fleet is read. */
const FLEET_READ_SLICE_SYSTEMS = 1_000;

/** A range of system keys, both ends included. */
export interface SystemKeyRange {
  first: number;
  last: number;
}

/** The store's system keys in ranges of FLEET_READ_SLICE_SYSTEMS, for reads of the whole fleet a slice per turn. */
export function systemKeyRanges(db: FleetDb): SystemKeyRange[] {
  const lastSys = db.get<{ last: number | null }>(sql`SELECT max(sys) AS last FROM systems`)?.last ?? 0;
  const ranges: SystemKeyRange[] = [];
  for (let first = 1; first <= lastSys; first += FLEET_READ_SLICE_SYSTEMS) {
    ranges.push({ first, last: Math.min(lastSys, first + FLEET_READ_SLICE_SYSTEMS - 1) });
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
    slices.push({
      systems: db.all<SystemMetricRow>(
        sql`SELECT ${SYSTEM_METRIC_COLUMNS} FROM systems s WHERE s.sys BETWEEN ${first} AND ${last}`,
      ),
      inverters: db.all<InverterMetricRow>(sql`
        SELECT ${INVERTER_METRIC_COLUMNS} FROM inverters i CROSS JOIN systems s ON s.sys = i.sys
        WHERE i.sys BETWEEN ${first} AND ${last} ORDER BY i.sys, i.serial`),
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
  return {
    systems: db.all<SystemMetricRow>(sql`
      SELECT ${SYSTEM_METRIC_COLUMNS} FROM systems s WHERE s.sys IN (SELECT value FROM json_each(${sysList}))
      ORDER BY coalesce(s.site_name, s.name), s.name, s.system_id`),
    inverters: db.all<InverterMetricRow>(sql`
      SELECT ${INVERTER_METRIC_COLUMNS} FROM inverters i CROSS JOIN systems s ON s.sys = i.sys
      WHERE i.sys IN (SELECT value FROM json_each(${sysList})) ORDER BY i.serial`),
  };
}

/** Raw points of one system in [from, to] (epoch ms). */
export function powerReadings(db: FleetDb, systemId: string, fromMs: number, toMs: number) {
  return db.all<PowerAt>(sql`
    SELECT r.t * 1000 AS time, r.power_w FROM systems s CROSS JOIN system_readings r ON r.sys = s.sys
    WHERE s.system_id = ${systemId} AND r.t >= ${Math.ceil(fromMs / 1000)} AND r.t <= ${Math.floor(toMs / 1000)}
    ORDER BY r.t`);
}

/** Hourly mean power of one system for hours starting in [from, to]. */
export function hourlyPower(db: FleetDb, systemId: string, fromMs: number, toMs: number) {
  return db.all<{ time: number; power_w: SqlRow<typeof fleetSystemHourly>["avg_power_w"] }>(sql`
    SELECT h.hour * ${HOUR_MS} AS time, h.avg_power_w AS power_w FROM systems s CROSS JOIN system_hourly h ON h.sys = s.sys
    WHERE s.system_id = ${systemId} AND h.hour >= ${Math.ceil(fromMs / HOUR_MS)} AND h.hour <= ${Math.floor(toMs / HOUR_MS)}
    ORDER BY h.hour`);
}

export function dailyEnergy(db: FleetDb, systemId: string, fromDate: string, toDate: string) {
  return db.all<Pick<SqlRow<typeof fleetSystemDaily>, "date" | "energy_wh" | "peak_power_w">>(sql`
    SELECT d.date, d.energy_wh, d.peak_power_w FROM systems s CROSS JOIN system_daily d ON d.sys = s.sys
    WHERE s.system_id = ${systemId} AND d.date >= ${fromDate} AND d.date <= ${toDate} ORDER BY d.date`);
}

/** Mean power per UTC hour summed over the given systems, for hours starting in [start, end). */
export function summedHourlyPower(db: FleetDb, systemIds: string[], startMs: number, endMs: number) {
  return db.all<{ hour_start: number; power_w: SqlRow<typeof fleetSystemHourly>["avg_power_w"] }>(sql`
    SELECT h.hour * ${HOUR_MS} AS hour_start, sum(h.avg_power_w) AS power_w
    FROM systems s CROSS JOIN system_hourly h ON h.sys = s.sys
      AND h.hour >= ${Math.ceil(startMs / HOUR_MS)} AND h.hour < ${Math.ceil(endMs / HOUR_MS)}
    WHERE s.system_id IN (SELECT value FROM json_each(${JSON.stringify(systemIds)}))
    GROUP BY h.hour`);
}

export function liveValues(db: FleetDb, systemIds: string[]): LiveValues[] {
  return db
    .all<Pick<SystemColumns, "system_id" | "state" | "power_w" | "energy_today_wh" | "data_time">>(sql`
      SELECT system_id, state, power_w, energy_today_wh, data_time FROM systems
      WHERE system_id IN (SELECT value FROM json_each(${JSON.stringify(systemIds)}))`)
    .map((r) => ({
      systemId: r.system_id,
      state: fromStoredState(r.state),
      powerW: r.power_w,
      energyTodayWh: r.energy_today_wh,
      dataTime: r.data_time,
    }));
}

/** Row counts per table: what the store holds (the benchmark's per-row costs). */
export function tableRowCounts(db: FleetDb) {
  const count = (table: string) =>
    db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.raw(table)}`)?.n ?? 0;
  return {
    systems: count("systems"),
    inverters: count("inverters"),
    systemReadings: count("system_readings"),
    inverterReadings: count("inverter_readings"),
    hourly: count("system_hourly"),
    daily: count("system_daily"),
  };
}

/** Every system's live values (the site lists' read model joins them with D1's systems). */
export function allLiveValues(db: FleetDb): Omit<LiveValues, "state">[] {
  return db
    .all<Pick<SystemColumns, "system_id" | "power_w" | "energy_today_wh" | "data_time">>(
      sql`SELECT system_id, power_w, energy_today_wh, data_time FROM systems`,
    )
    .map((r) => ({
      systemId: r.system_id,
      powerW: r.power_w,
      energyTodayWh: r.energy_today_wh,
      dataTime: r.data_time,
    }));
}
