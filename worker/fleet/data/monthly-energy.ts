import { sql } from "drizzle-orm";
import type { FleetDb } from "../db";

/** Each system's summed daily energy over the plant-local dates in [fromDate, toDate] (YYYY-MM-DD). */
export function energyBySystem(db: FleetDb, fromDate: string, toDate: string) {
  return db.all<{ system_id: string; energy_wh: number }>(sql`
    SELECT s.system_id, sum(d.energy_wh) AS energy_wh FROM systems s CROSS JOIN system_daily d ON d.sys = s.sys
    WHERE d.date >= ${fromDate} AND d.date <= ${toDate} GROUP BY s.system_id`);
}
