import type { Db } from "../lib/db";

export interface SystemMetricRow {
  id: string;
  name: string;
  provider: string;
  provider_system_id: string;
  capacity_w: number | null;
  state: string;
  power_w: number | null;
  energy_today_wh: number | null;
  data_time: number | null;
  site_id: string | null;
  site_name: string | null;
  site_capacity_kw: number | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  timezone: string;
  location_key: string | null;
}

export interface InverterMetricRow {
  system_id: string;
  serial: string | null;
  state: string;
  power_w: number | null;
  energy_today_wh: number | null;
  temperature_c: number | null;
}

/** The systems and their inverters, as the fleet store reads them (worker/fleet/data/reads.ts). */
export interface MetricRows {
  systems: SystemMetricRow[];
  inverters: InverterMetricRow[];
}

export interface IrradianceWindow {
  key: string;
  start: number;
  end: number;
}

/** Irradiation (Wh/m²) per location over a UTC window: the sum of the hourly mean irradiance. */
export async function sumIrradiance(db: Db, windows: IrradianceWindow[]) {
  if (windows.length === 0) return [];
  const rows = await db.$client
    .prepare(
      `SELECT json_extract(q.value, '$.key') AS key, json_extract(q.value, '$.start') AS start,
         sum(ih.ghi_wm2) AS wh_m2, count(ih.hour_start) AS hours
       FROM json_each(?) AS q
       JOIN irradiance_hourly ih ON ih.location_key = json_extract(q.value, '$.key')
         AND ih.hour_start >= json_extract(q.value, '$.start') AND ih.hour_start < json_extract(q.value, '$.end')
       GROUP BY key, start`,
    )
    .bind(JSON.stringify(windows))
    .all<{ key: string; start: number; wh_m2: number; hours: number }>();
  return rows.results;
}
