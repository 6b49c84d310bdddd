import type { Db } from "../lib/db";

export async function powerReadings(db: Db, systemId: string, from: number, to: number) {
  const rows = await db.$client
    .prepare(
      "SELECT time, power_w FROM system_readings WHERE system_id = ? AND time >= ? AND time <= ? ORDER BY time",
    )
    .bind(systemId, from, to)
    .all<{ time: number; power_w: number | null }>();
  return rows.results;
}

export async function hourlyPower(db: Db, systemId: string, from: number, to: number) {
  const rows = await db.$client
    .prepare(
      "SELECT hour_start AS time, avg_power_w AS power_w FROM system_energy_hourly WHERE system_id = ? AND hour_start >= ? AND hour_start <= ? ORDER BY hour_start",
    )
    .bind(systemId, from, to)
    .all<{ time: number; power_w: number | null }>();
  return rows.results;
}

export async function dailyEnergy(db: Db, systemId: string, fromDate: string, toDate: string) {
  const rows = await db.$client
    .prepare(
      "SELECT date, energy_wh, peak_power_w FROM system_energy_daily WHERE system_id = ? AND date >= ? AND date <= ? ORDER BY date",
    )
    .bind(systemId, fromDate, toDate)
    .all<{ date: string; energy_wh: number; peak_power_w: number | null }>();
  return rows.results;
}
