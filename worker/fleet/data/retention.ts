import { sql } from "drizzle-orm";
import type { FleetDb } from "../db";

export interface RetentionBudget {
  /** Raw points older than this (epoch ms) are removed: systems' and inverters' each their own. */
  beforeMs: { system_readings: number; inverter_readings: number };
  /** Rows removed per run at most, so a backlog is worked off over several runs. */
  maxRows: number;
}

export interface RetentionRun {
  removed: number;
  /** Where the next run continues; null when this pass reached the end. */
  cursor: { table: "system_readings" | "inverter_readings"; key: number } | null;
}

const TABLES = [
  { table: "system_readings", key: "sys", owners: "systems" },
  { table: "inverter_readings", key: "inv", owners: "inverters" },
] as const;

/**
 * Removes raw points past their retention, and every point of a system or inverter D1 no longer
 * has, walking the tables key by key from a cursor: each key's old points are one range of the
 * primary key, and the run stops once it has removed `maxRows` rows. Hourly and daily rollups stay.
 */
export function pruneReadings(
  db: FleetDb,
  budget: RetentionBudget,
  from: RetentionRun["cursor"],
): RetentionRun {
  let removed = 0;
  const start = from ? TABLES.findIndex((t) => t.table === from.table) : 0;
  for (let i = Math.max(0, start); i < TABLES.length; i++) {
    const { table, key, owners } = TABLES[i] as (typeof TABLES)[number];
    const beforeS = Math.floor(budget.beforeMs[table] / 1000);
    let last = i === start && from ? from.key : -1;
    for (;;) {
      const next = db.get<{ id: number; owned: number }>(sql`
        SELECT r.${sql.raw(key)} AS id, EXISTS (SELECT 1 FROM ${sql.raw(owners)} o WHERE o.${sql.raw(key)} = r.${sql.raw(key)}) AS owned
        FROM ${sql.raw(table)} r WHERE r.${sql.raw(key)} > ${last} ORDER BY r.${sql.raw(key)} LIMIT 1`);
      if (!next) break;
      const room = budget.maxRows - removed;
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
