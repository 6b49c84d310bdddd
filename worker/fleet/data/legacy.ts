import { sql } from "drizzle-orm";
import type { FleetDb } from "../db";
import { toStoredState } from "../state";
import type { LegacyRows } from "../types";
import { pointTablesChanged } from "./points";
import { storePoints } from "./writes";

const HOUR_MS = 3_600_000;
const round = (value: number | null) => (value === null ? null : Math.round(value));

/**
 * Rows of the D1 tables the fleet store replaced, written as the store keeps them: times in
 * seconds or hours, whole watts, small keys. Existing rows win (the store may already hold
 * newer data from syncs since the upgrade). Rows of systems D1 no longer has are dropped.
 */
export function importLegacyRows(db: FleetDb, rows: LegacyRows): void {
  if (rows.systemReadings.length > 0) {
    const json = JSON.stringify(
      rows.systemReadings.map((r) => ({
        systemId: r.systemId,
        t: Math.floor(r.time / 1000),
        powerW: round(r.powerW),
        energyTodayWh: round(r.energyTodayWh),
        state: toStoredState(r.state),
      })),
    );
    pointTablesChanged(db);
    db.run(sql`
      INSERT INTO system_readings (sys, t, power_w, energy_today_wh, state)
      SELECT s.sys, j.value ->> 't', j.value ->> 'powerW', j.value ->> 'energyTodayWh', j.value ->> 'state'
      FROM json_each(${json}) AS j CROSS JOIN systems s ON s.system_id = j.value ->> 'systemId' WHERE true
      ON CONFLICT (sys, t) DO NOTHING`);
  }
  if (rows.inverterReadings.length > 0) {
    const json = JSON.stringify(
      rows.inverterReadings.map((r) => ({
        inverterId: r.inverterId,
        t: Math.floor(r.time / 1000),
        powerW: round(r.powerW),
        energyTodayWh: round(r.energyTodayWh),
        temperatureDc: r.temperatureC === null ? null : Math.round(r.temperatureC * 10),
        state: toStoredState(r.state),
      })),
    );
    db.run(sql`
      INSERT INTO inverter_readings (inv, t, power_w, energy_today_wh, temperature_dc, state)
      SELECT i.inv, j.value ->> 't', j.value ->> 'powerW', j.value ->> 'energyTodayWh', j.value ->> 'temperatureDc',
        j.value ->> 'state'
      FROM json_each(${json}) AS j CROSS JOIN inverters i ON i.inverter_id = j.value ->> 'inverterId' WHERE true
      ON CONFLICT (inv, t) DO NOTHING`);
  }
  if (rows.hourly.length > 0) {
    const json = JSON.stringify(
      rows.hourly.map((r) => ({
        systemId: r.systemId,
        hour: Math.floor(r.hourStart / HOUR_MS),
        avgPowerW: round(r.avgPowerW),
        samples: r.samples,
      })),
    );
    db.run(sql`
      INSERT INTO system_hourly (sys, hour, avg_power_w, samples)
      SELECT s.sys, j.value ->> 'hour', j.value ->> 'avgPowerW', j.value ->> 'samples'
      FROM json_each(${json}) AS j CROSS JOIN systems s ON s.system_id = j.value ->> 'systemId' WHERE true
      ON CONFLICT (sys, hour) DO NOTHING`);
  }
  if (rows.daily.length > 0) {
    const json = JSON.stringify(
      rows.daily.map((r) => ({
        systemId: r.systemId,
        date: r.date,
        energyWh: Math.round(r.energyWh),
        peakPowerW: round(r.peakPowerW),
      })),
    );
    db.run(sql`
      INSERT INTO system_daily (sys, date, energy_wh, peak_power_w)
      SELECT s.sys, j.value ->> 'date', j.value ->> 'energyWh', j.value ->> 'peakPowerW'
      FROM json_each(${json}) AS j CROSS JOIN systems s ON s.system_id = j.value ->> 'systemId' WHERE true
      ON CONFLICT (sys, date) DO UPDATE SET energy_wh = max(energy_wh, excluded.energy_wh)`);
  }
  // Live values go through the normal path: newest wins, their hour and day are rolled up again.
  storePoints(db, rows.live);
}
