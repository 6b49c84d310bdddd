import type { Db } from "../lib/db";
import {
  SYSTEM_LATITUDE,
  SYSTEM_LOCATION_KEY,
  SYSTEM_LONGITUDE,
  SYSTEM_WITH_SITE,
  SYSTEM_ZONE,
} from "./system-place";

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

/** Every system of the organisation (or one system, or a site's systems) with its site, location and zone. */
function systemMetricRowsStatement(db: Db, orgId: string, systemId?: string) {
  return db.$client
    .prepare(
      `SELECT ms.id, ms.name, ms.provider, ms.provider_system_id, ms.capacity_w, ms.state, ms.power_w,
         ms.energy_today_wh, ms.data_time, s.id AS site_id, s.name AS site_name, s.capacity_kw AS site_capacity_kw,
         coalesce(s.location, s.address, ms.address) AS address,
         ${SYSTEM_LATITUDE} AS latitude, ${SYSTEM_LONGITUDE} AS longitude,
         ${SYSTEM_ZONE} AS timezone, ${SYSTEM_LOCATION_KEY} AS location_key
       FROM ${SYSTEM_WITH_SITE}
       WHERE ms.org_id = ? ${systemId ? "AND (ms.id = ? OR ms.site_id = ?)" : ""}
       ORDER BY coalesce(s.name, ms.name), ms.name`,
    )
    .bind(...(systemId ? [orgId, systemId, systemId] : [orgId]));
}

export interface InverterMetricRow {
  system_id: string;
  serial: string | null;
  state: string;
  power_w: number | null;
  energy_today_wh: number | null;
  temperature_c: number | null;
}

function inverterMetricRowsStatement(db: Db, orgId: string, systemId?: string) {
  return db.$client
    .prepare(
      `SELECT system_id, serial, state, power_w, energy_today_wh, temperature_c FROM inverters
       WHERE org_id = ? ${
         systemId
           ? "AND system_id IN (SELECT id FROM monitoring_systems WHERE org_id = ? AND (id = ? OR site_id = ?))"
           : ""
       } ORDER BY serial`,
    )
    .bind(...(systemId ? [orgId, orgId, systemId, systemId] : [orgId]));
}

export interface MetricRows {
  systems: SystemMetricRow[];
  inverters: InverterMetricRow[];
}

/** The systems and their inverters in one D1 batch: one round trip, one consistent read. */
export async function readMetricRows(db: Db, orgId: string, systemId?: string): Promise<MetricRows> {
  const [systems, inverters] = await db.$client.batch<unknown>([
    systemMetricRowsStatement(db, orgId, systemId),
    inverterMetricRowsStatement(db, orgId, systemId),
  ]);
  return {
    systems: (systems?.results ?? []) as SystemMetricRow[],
    inverters: (inverters?.results ?? []) as InverterMetricRow[],
  };
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
