import { sql } from "drizzle-orm";
import type {
  fleetInverterReadings,
  fleetInverters,
  fleetSystemReadings,
  fleetSystems,
} from "../../../schema/fleet-tables";
import type { Nullable, SqlRow } from "../../../schema/sql-row";
import type { FleetDb } from "../db";
import type { DetectionSystem } from "../types";

/**
 * The systems (all, or the listed ones) with their system and inverter points in [from, to]
 * (epoch ms): three reads over the readings' primary keys.
 */
export function readDetectionInput(
  db: FleetDb,
  systemIds: string[] | null,
  fromMs: number,
  toMs: number,
): DetectionSystem[] {
  const where =
    systemIds === null
      ? sql``
      : sql`WHERE s.system_id IN (SELECT value FROM json_each(${JSON.stringify(systemIds)}))`;
  const fromS = Math.ceil(fromMs / 1000);
  const toS = Math.floor(toMs / 1000);
  const systems = db.all<
    Pick<
      SqlRow<typeof fleetSystems>,
      "sys" | "system_id" | "capacity_w" | "latitude" | "longitude" | "location_key" | "data_time"
    > & { last_t: SqlRow<typeof fleetSystemReadings>["t"] | null }
  >(sql`
    SELECT s.sys, s.system_id, s.capacity_w, s.latitude, s.longitude, s.location_key, s.data_time,
      (SELECT max(r.t) FROM system_readings r WHERE r.sys = s.sys) AS last_t
    FROM systems s ${where}`);
  if (systems.length === 0) return [];
  const sysList = JSON.stringify(systems.map((s) => s.sys));
  const points = db.all<Pick<SqlRow<typeof fleetSystemReadings>, "sys" | "t" | "power_w">>(sql`
    SELECT r.sys, r.t, r.power_w FROM system_readings r
    WHERE r.sys IN (SELECT value FROM json_each(${sysList})) AND r.t >= ${fromS} AND r.t <= ${toS}
    ORDER BY r.sys, r.t`);
  // LEFT JOIN: an inverter without a point in the window still comes, with nulls.
  const inverterPoints = db.all<
    Pick<SqlRow<typeof fleetInverters>, "sys" | "inv" | "serial"> &
      Nullable<Pick<SqlRow<typeof fleetInverterReadings>, "t" | "power_w" | "state">>
  >(sql`
    SELECT i.sys, i.inv, coalesce(i.serial, i.inverter_id) AS serial, r.t, r.power_w, r.state
    FROM inverters i LEFT JOIN inverter_readings r ON r.inv = i.inv AND r.t >= ${fromS} AND r.t <= ${toS}
    WHERE i.sys IN (SELECT value FROM json_each(${sysList}))
    ORDER BY i.sys, i.inv, r.t`);

  const bySys = new Map<number, DetectionSystem>();
  for (const s of systems) {
    const lastPoint = s.last_t === null ? null : s.last_t * 1000;
    bySys.set(s.sys, {
      systemId: s.system_id,
      capacityW: s.capacity_w,
      latitude: s.latitude,
      longitude: s.longitude,
      locationKey: s.location_key,
      lastDataAt:
        s.data_time === null
          ? lastPoint
          : lastPoint === null
            ? s.data_time
            : Math.max(s.data_time, lastPoint),
      points: [],
      inverters: [],
    });
  }
  for (const p of points) bySys.get(p.sys)?.points.push([p.t * 1000, p.power_w]);
  const inverters = new Map<number, DetectionSystem["inverters"][number]>();
  for (const p of inverterPoints) {
    let inverter = inverters.get(p.inv);
    if (!inverter) {
      inverter = { serial: p.serial ?? String(p.inv), points: [] };
      inverters.set(p.inv, inverter);
      bySys.get(p.sys)?.inverters.push(inverter);
    }
    if (p.t !== null) inverter.points.push([p.t * 1000, p.power_w, p.state === 2 ? 1 : 0]);
  }
  return [...bySys.values()];
}
