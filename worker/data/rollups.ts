import type { ProviderId } from "../../schema/api/providers";
import type { Db } from "../lib/db";
import { localDayOf } from "../lib/energy/local-day";

export interface RollupPoint {
  systemId: string;
  timezone: string;
  time: number;
  powerW: number | null;
  energyTodayWh: number | null;
}

/**
 * Rollup writes after new readings are stored: the touched UTC hours are recomputed from the
 * raw readings (idempotent), and each plant-local day keeps the highest energy-today counter
 * seen (vendors reset it at local midnight, so the maximum is the day's energy).
 */
export function rollupStatements(
  db: Db,
  orgId: string,
  provider: ProviderId,
  points: RollupPoint[],
  now: number,
) {
  if (points.length === 0) return [];
  const since = Math.floor(Math.min(...points.map((p) => p.time)) / 3_600_000) * 3_600_000;
  const hourly = db.$client
    .prepare(
      `INSERT INTO system_energy_hourly (system_id, hour_start, avg_power_w, samples)
       SELECT r.system_id, (r.time / 3600000) * 3600000, avg(r.power_w), count(*)
       FROM system_readings r JOIN monitoring_systems ms ON ms.id = r.system_id
       WHERE ms.org_id = ? AND ms.provider = ? AND r.time >= ?
       GROUP BY r.system_id, r.time / 3600000
       ON CONFLICT (system_id, hour_start) DO UPDATE SET avg_power_w = excluded.avg_power_w, samples = excluded.samples`,
    )
    .bind(orgId, provider, since);
  const days = new Map<string, { systemId: string; date: string; energyWh: number; powerW: number }>();
  for (const p of points) {
    if (p.energyTodayWh === null) continue;
    const date = localDayOf(p.time, p.timezone).date;
    const key = `${p.systemId}|${date}`;
    const current = days.get(key);
    days.set(key, {
      systemId: p.systemId,
      date,
      energyWh: Math.max(current?.energyWh ?? 0, p.energyTodayWh),
      powerW: Math.max(current?.powerW ?? 0, p.powerW ?? 0),
    });
  }
  if (days.size === 0) return [hourly];
  const daily = db.$client
    .prepare(
      `INSERT INTO system_energy_daily (system_id, date, energy_wh, peak_power_w, updated_at)
       SELECT json_extract(j.value, '$.systemId'), json_extract(j.value, '$.date'),
         json_extract(j.value, '$.energyWh'), json_extract(j.value, '$.powerW'), ?
       FROM json_each(?) AS j WHERE true
       ON CONFLICT (system_id, date) DO UPDATE SET
         energy_wh = max(energy_wh, excluded.energy_wh),
         peak_power_w = max(coalesce(peak_power_w, 0), coalesce(excluded.peak_power_w, 0)),
         updated_at = excluded.updated_at`,
    )
    .bind(now, JSON.stringify([...days.values()]));
  return [hourly, daily];
}

/** Raw readings older than the retention are removed; their hours and days stay rolled up. */
export const RAW_RETENTION_MS = 35 * 24 * 3_600_000;

export function pruneRawReadings(db: Db, now: number) {
  const before = now - RAW_RETENTION_MS;
  return [
    db.$client.prepare("DELETE FROM system_readings WHERE time < ?").bind(before),
    db.$client.prepare("DELETE FROM inverter_readings WHERE time < ?").bind(before),
  ];
}
