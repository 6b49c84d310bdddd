import { sql } from "drizzle-orm";
import type { fleetSystemDaily, fleetSystems } from "../../../schema/fleet-tables";
import type { SqlRow } from "../../../schema/sql-row";
import type { FleetDb } from "../db";

type SystemId = Pick<SqlRow<typeof fleetSystems>, "system_id">;

/** Each system's summed daily energy over the plant-local dates in [fromDate, toDate] (YYYY-MM-DD). */
export function energyBySystem(db: FleetDb, fromDate: string, toDate: string) {
  return db.all<SystemId & Pick<SqlRow<typeof fleetSystemDaily>, "energy_wh">>(sql`
    SELECT s.system_id, sum(d.energy_wh) AS energy_wh FROM systems s CROSS JOIN system_daily d ON d.sys = s.sys
    WHERE d.date >= ${fromDate} AND d.date <= ${toDate} GROUP BY s.system_id`);
}

/**
 * Hours each system produced (mean power above zero) among the given daylight hours of its
 * location (`[locationKey, hours since the epoch]` pairs): the numerator of its availability.
 */
export function producingHoursBySystem(db: FleetDb, daylight: [string, number][]) {
  return db.all<SystemId & { hours: number }>(sql`
    WITH daylight(location_key, hour) AS (
      SELECT value ->> '$[0]', value ->> '$[1]' FROM json_each(${JSON.stringify(daylight)}))
    SELECT s.system_id, count(*) AS hours FROM daylight d
    JOIN systems s ON s.location_key = d.location_key
    JOIN system_hourly h ON h.sys = s.sys AND h.hour = d.hour
    WHERE h.avg_power_w > 0 GROUP BY s.system_id`);
}
