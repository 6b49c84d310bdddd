import { sql } from "drizzle-orm";
import type { fleetSystemDaily, fleetSystems } from "../../../schema/fleet-tables";
import type { SqlRow } from "../../../schema/sql-row";
import type { FleetDb } from "../db";
import { openDaysJson, openHours } from "./rollups";

type SystemId = Pick<SqlRow<typeof fleetSystems>, "system_id">;

/**
 * Each system's summed daily energy over the plant-local dates in [fromDate, toDate] (YYYY-MM-DD);
 * a day of a system's open hour takes that hour's points too.
 */
export function energyBySystem(db: FleetDb, fromDate: string, toDate: string) {
  const open = openDaysJson(openHours(db, sql`true`));
  return db.all<SystemId & Pick<SqlRow<typeof fleetSystemDaily>, "energy_wh">>(sql`
    WITH od AS MATERIALIZED (SELECT value ->> 0 AS sys, value ->> 1 AS date, value ->> 2 AS energy_wh FROM json_each(${open})),
    e AS (
      SELECT d.sys, d.date, d.energy_wh FROM systems s CROSS JOIN system_daily d ON d.sys = s.sys
      WHERE d.date >= ${fromDate} AND d.date <= ${toDate}
      UNION ALL
      SELECT sys, date, energy_wh FROM od WHERE date >= ${fromDate} AND date <= ${toDate}
    )
    SELECT s.system_id, sum(m.energy_wh) AS energy_wh
    FROM (SELECT sys, date, max(energy_wh) AS energy_wh FROM e GROUP BY sys, date) m CROSS JOIN systems s ON s.sys = m.sys
    GROUP BY s.system_id`);
}

/**
 * Hours each system produced (mean power above zero) among the given daylight hours of its
 * location (`[locationKey, hours since the epoch]` pairs): the numerator of its availability. A
 * system's open hour counts from its points.
 */
export function producingHoursBySystem(db: FleetDb, daylight: [string, number][]) {
  const open = JSON.stringify(
    openHours(db, sql`s.location_key IS NOT NULL`)
      .filter((h) => (h.avgPowerW ?? 0) > 0)
      .map((h) => [h.sys, h.hour]),
  );
  return db.all<SystemId & { hours: number }>(sql`
    WITH daylight(location_key, hour) AS (
      SELECT value ->> '$[0]', value ->> '$[1]' FROM json_each(${JSON.stringify(daylight)})),
    oh AS MATERIALIZED (SELECT value ->> 0 AS sys, value ->> 1 AS hour FROM json_each(${open})),
    produced AS (
      SELECT s.system_id FROM daylight d
      JOIN systems s ON s.location_key = d.location_key
      JOIN system_hourly h ON h.sys = s.sys AND h.hour = d.hour
      WHERE h.avg_power_w > 0
      UNION ALL
      SELECT s.system_id FROM oh CROSS JOIN systems s ON s.sys = oh.sys
      JOIN daylight d ON d.location_key = s.location_key AND d.hour = oh.hour
    )
    SELECT system_id, count(*) AS hours FROM produced GROUP BY system_id`);
}
