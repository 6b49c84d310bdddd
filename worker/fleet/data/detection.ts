import { type SQL, sql } from "drizzle-orm";
import type { fleetInverters, fleetSystems } from "../../../schema/fleet-tables";
import type { SqlRow } from "../../../schema/sql-row";
import { yieldTurn } from "../../lib/yield-turn";
import type { FleetDb } from "../db";
import type { DetectionSystem } from "../types";
import { inverterPointsBetween, liveRowsOf, type PointRow, readAcross } from "./points";
import { systemKeyRanges } from "./reads";

/**
 * The listed systems with their system and inverter points in [from, to] (epoch ms), as
 * `detectionInputWhere` reads them.
 */
export function readDetectionInput(
  db: FleetDb,
  systemIds: string[],
  fromMs: number,
  toMs: number,
): DetectionSystem[] {
  return detectionInputWhere(
    db,
    sql`s.system_id IN (SELECT value FROM json_each(${JSON.stringify(systemIds)}))`,
    fromMs,
    toMs,
  );
}

/**
 * Systems whose detection input is read in one step. A system's window is ~27 points with its
 * inverters' entries unpacked, and the hour either side: at 1,000 systems (the metrics' slice) a
 * step held the store 250–350 ms when every system had points (25–120 ms at 200), and every read
 * and page arriving meanwhile waited it out.
 */
const DETECTION_SLICE_SYSTEMS = 200;

/**
 * Every system's detection input, a slice of consecutive keys at a time with a turn of the event
 * loop between slices: read whole, a 20,000-system fleet's window (~27 points a system and its
 * inverters' entries) held the store for the whole read, and every sync page, read and socket
 * waited it out, every five minutes.
 */
export async function readFleetDetectionInput(
  db: FleetDb,
  fromMs: number,
  toMs: number,
): Promise<DetectionSystem[]> {
  const systems: DetectionSystem[] = [];
  for (const [index, { first, last }] of systemKeyRanges(db, DETECTION_SLICE_SYSTEMS).entries()) {
    if (index > 0) await yieldTurn();
    systems.push(...detectionInputWhere(db, sql`s.sys BETWEEN ${first} AND ${last}`, fromMs, toMs));
  }
  return systems;
}

/**
 * The systems `where` picks (over `systems s`) with their system and inverter points in [from, to]
 * (epoch ms): their live values, then each day's points in the window by key, the inverters'
 * entries unpacked from them (each inverter point once, at its own time).
 */
function detectionInputWhere(db: FleetDb, where: SQL, fromMs: number, toMs: number): DetectionSystem[] {
  const fromS = Math.ceil(fromMs / 1000);
  const toS = Math.floor(toMs / 1000);
  const live = liveRowsOf(db, where);
  const systems = db
    .all<
      Pick<
        SqlRow<typeof fleetSystems>,
        "sys" | "system_id" | "capacity_w" | "latitude" | "longitude" | "location_key"
      >
    >(sql`
      SELECT s.sys, s.system_id, s.capacity_w, s.latitude, s.longitude, s.location_key FROM systems s WHERE ${where}`)
    .map((s) => ({ ...s, data_time: live.get(s.sys)?.data_time ?? null }));
  if (systems.length === 0) return [];
  const sysList = JSON.stringify(systems.map((s) => s.sys));
  const points = readAcross<Pick<PointRow, "sys" | "t" | "power_w">>(
    db,
    fromS,
    toS,
    (table) => sql`
      SELECT r.sys, r.t, r.power_w FROM ${table} r
      WHERE r.sys IN (SELECT value FROM json_each(${sysList})) AND r.t >= ${fromS} AND r.t <= ${toS}`,
    (a, b) => a.sys - b.sys || a.t - b.t,
  );
  const inverterRows = db.all<Pick<SqlRow<typeof fleetInverters>, "sys" | "inv"> & { serial: string }>(sql`
    SELECT i.sys, i.inv, coalesce(i.serial, i.inverter_id) AS serial FROM inverters i
    WHERE i.sys IN (SELECT value FROM json_each(${sysList})) ORDER BY i.sys, i.inv`);

  const bySys = new Map<number, DetectionSystem>();
  for (const s of systems) {
    bySys.set(s.sys, {
      systemId: s.system_id,
      capacityW: s.capacity_w,
      latitude: s.latitude,
      longitude: s.longitude,
      locationKey: s.location_key,
      lastDataAt: s.data_time,
      points: [],
      inverters: [],
    });
  }
  const inverters = new Map<number, DetectionSystem["inverters"][number]>();
  for (const row of inverterRows) {
    const inverter = { serial: row.serial, points: [] as [number, number | null, number][] };
    inverters.set(row.inv, inverter);
    bySys.get(row.sys)?.inverters.push(inverter);
  }
  for (const p of points) bySys.get(p.sys)?.points.push([p.t * 1000, p.power_w]);
  const inverterPoints = inverterPointsBetween(
    db,
    systems.map((s) => s.sys),
    fromS,
    toS,
  );
  for (const p of inverterPoints) {
    inverters.get(p.inv)?.points.push([p.t * 1000, p.power_w, p.state === 2 ? 1 : 0]);
  }
  return [...bySys.values()];
}
