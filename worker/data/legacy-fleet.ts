import type { SystemState } from "../../schema/domain";
import type { Db } from "../lib/db";

/*
 * The fleet_import_* tables migration 0007 filled from the D1 tables the fleet stores replaced.
 * They are not in the drizzle schema: they exist only until worker/engines/legacy-fleet-move.ts has
 * moved their rows into the stores, and are then dropped.
 */
export const LEGACY_TABLES = [
  "fleet_import_daily",
  "fleet_import_hourly",
  "fleet_import_system_readings",
  "fleet_import_inverter_readings",
  "fleet_import_live",
  "fleet_import_inverter_live",
] as const;
export type LegacyTable = (typeof LEGACY_TABLES)[number];

export async function existingLegacyTables(db: Db): Promise<LegacyTable[]> {
  const rows = await db.$client
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'fleet_import_%'")
    .all<{ name: string }>();
  const present = new Set(rows.results.map((r) => r.name));
  return LEGACY_TABLES.filter((table) => present.has(table));
}

export interface LegacyRow {
  rowid: number;
  org_id: string;
  system_id?: string;
  inverter_id?: string;
  time?: number;
  hour_start?: number;
  date?: string;
  power_w?: number | null;
  avg_power_w?: number | null;
  samples?: number;
  energy_today_wh?: number | null;
  energy_total_wh?: number | null;
  energy_wh?: number;
  peak_power_w?: number | null;
  temperature_c?: number | null;
  state?: SystemState;
  data_time?: number;
}

/** The oldest `limit` rows of one table, with their rowid so exactly these can be removed. */
export async function readLegacyRows(db: Db, table: LegacyTable, limit: number) {
  const rows = await db.$client
    .prepare(`SELECT rowid, * FROM ${table} ORDER BY rowid LIMIT ?`)
    .bind(limit)
    .all<LegacyRow>();
  return rows.results;
}

export function deleteLegacyRowsThrough(db: Db, table: LegacyTable, lastRowid: number) {
  return db.$client.prepare(`DELETE FROM ${table} WHERE rowid <= ?`).bind(lastRowid).run();
}

export function dropLegacyTable(db: Db, table: LegacyTable) {
  return db.$client.prepare(`DROP TABLE IF EXISTS ${table}`).run();
}
