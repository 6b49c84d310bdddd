import { sql } from "drizzle-orm";
import type { fleetHistoryDays, fleetSystems } from "../../../schema/fleet-tables";
import type { SqlRow } from "../../../schema/sql-row";
import type { SystemCoverage } from "../../domain/history/gaps";
import type { FleetDb } from "../db";
import { readAcross } from "./points";

/** Later than any point's time (epoch seconds): "from then on". */
const END_OF_TIME_S = 2 ** 40;

/**
 * What gap detection reads for each of the given systems: its zone and place, the start of every
 * `slotMs` slot since `fromMs` that holds a point (one per slot, not every point), and the days
 * already read from the vendor's history. Each system is one range of each day's points' key.
 */
export function readHistoryCoverage(
  db: FleetDb,
  systemIds: string[],
  fromMs: number,
  slotMs: number,
): Map<string, SystemCoverage> {
  const systems = db.all<
    Pick<SqlRow<typeof fleetSystems>, "sys" | "system_id" | "timezone" | "latitude" | "longitude">
  >(sql`
    SELECT sys, system_id, timezone, latitude, longitude FROM systems
    WHERE system_id IN (SELECT value FROM json_each(${JSON.stringify(systemIds)}))`);
  const slotS = Math.max(1, Math.round(slotMs / 1000));
  const fromS = Math.floor(fromMs / 1000);
  const fromDate = new Date(fromMs - 86_400_000).toISOString().slice(0, 10);
  const coverage = new Map<string, SystemCoverage>();
  for (const system of systems) {
    const slots = readAcross<{ slot: number }>(
      db,
      fromS,
      END_OF_TIME_S,
      (table) =>
        sql`SELECT DISTINCT t / ${slotS} AS slot FROM ${table} WHERE sys = ${system.sys} AND t >= ${fromS}`,
      (a, b) => a.slot - b.slot,
    ).filter((row, i, rows) => i === 0 || rows[i - 1]?.slot !== row.slot);
    const fetched = db.all<Pick<SqlRow<typeof fleetHistoryDays>, "date">>(sql`
      SELECT date FROM history_days WHERE sys = ${system.sys} AND date >= ${fromDate}`);
    coverage.set(system.system_id, {
      timezone: system.timezone,
      latitude: system.latitude,
      longitude: system.longitude,
      pointTimes: slots.map((row) => row.slot * slotS * 1000),
      fetchedDays: new Set(fetched.map((row) => row.date)),
    });
  }
  return coverage;
}
