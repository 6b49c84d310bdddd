import {
  deleteLegacyRowsThrough,
  dropLegacyTable,
  existingLegacyTables,
  type LegacyRow,
  type LegacyTable,
  readLegacyRows,
} from "../data/legacy-fleet";
import type { Env } from "../env";
import type { LegacyRows } from "../fleet/types";
import { createDb } from "../lib/db";
import { fleetStoreFor } from "../lib/fleet-store";

/** Rows read from D1 and handed to the stores at a time. */
const CHUNK_ROWS = 2_000;

const emptyRows = (): LegacyRows => ({
  systemReadings: [],
  inverterReadings: [],
  hourly: [],
  daily: [],
  live: [],
});

function addRow(rows: LegacyRows, table: LegacyTable, r: LegacyRow): void {
  const num = (value: number | null | undefined) => value ?? null;
  switch (table) {
    case "fleet_import_system_readings":
      rows.systemReadings.push({
        systemId: r.system_id ?? "",
        time: r.time ?? 0,
        powerW: num(r.power_w),
        energyTodayWh: num(r.energy_today_wh),
        state: r.state ?? "offline",
      });
      return;
    case "fleet_import_inverter_readings":
      rows.inverterReadings.push({
        inverterId: r.inverter_id ?? "",
        time: r.time ?? 0,
        powerW: num(r.power_w),
        energyTodayWh: num(r.energy_today_wh),
        temperatureC: num(r.temperature_c),
        state: r.state ?? "offline",
      });
      return;
    case "fleet_import_hourly":
      rows.hourly.push({
        systemId: r.system_id ?? "",
        hourStart: r.hour_start ?? 0,
        avgPowerW: num(r.avg_power_w),
        samples: r.samples ?? 0,
      });
      return;
    case "fleet_import_daily":
      rows.daily.push({
        systemId: r.system_id ?? "",
        date: r.date ?? "",
        energyWh: r.energy_wh ?? 0,
        peakPowerW: num(r.peak_power_w),
      });
      return;
    case "fleet_import_live":
      rows.live.push({
        systemId: r.system_id ?? "",
        time: r.data_time ?? 0,
        state: r.state ?? "offline",
        powerW: num(r.power_w),
        energyTodayWh: num(r.energy_today_wh),
        energyTotalWh: num(r.energy_total_wh),
        inverters: [],
      });
      return;
    case "fleet_import_inverter_live":
      // An inverter's last live values are its newest reading: stored as one, they become live too.
      rows.inverterReadings.push({
        inverterId: r.inverter_id ?? "",
        time: r.data_time ?? 0,
        powerW: num(r.power_w),
        energyTodayWh: num(r.energy_today_wh),
        temperatureC: num(r.temperature_c),
        state: r.state ?? "offline",
      });
      return;
  }
}

/**
 * Moves the readings, rollups and live values an upgrade left in D1 (migration 0007) into each
 * organisation's fleet store, at most `maxRows` rows per call, oldest first; a chunk leaves D1
 * only once its stores hold it. When every table is empty it is dropped. Answers what it moved
 * and whether anything is left.
 */
export async function moveLegacyFleetData(
  env: Env,
  maxRows = 100_000,
): Promise<{ moved: number; done: boolean }> {
  const db = createDb(env.DB);
  let moved = 0;
  for (const table of await existingLegacyTables(db)) {
    for (;;) {
      if (moved >= maxRows) return { moved, done: false };
      const rows = await readLegacyRows(db, table, CHUNK_ROWS);
      const last = rows.at(-1);
      if (!last) break;
      const byOrg = new Map<string, LegacyRows>();
      for (const row of rows) {
        const forOrg = byOrg.get(row.org_id) ?? emptyRows();
        addRow(forOrg, table, row);
        byOrg.set(row.org_id, forOrg);
      }
      for (const [orgId, forOrg] of byOrg) await fleetStoreFor(env, orgId).importLegacy(orgId, forOrg);
      await deleteLegacyRowsThrough(db, table, last.rowid);
      moved += rows.length;
    }
    await dropLegacyTable(db, table);
  }
  return { moved, done: true };
}
