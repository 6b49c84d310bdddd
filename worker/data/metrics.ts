import type { SystemState } from "../../schema/domain";
import type { fleetInverters, fleetSystems } from "../../schema/fleet-tables";
import type { SqlRow } from "../../schema/sql-row";
import type { irradianceHourly } from "../../schema/tables";
import type { Db } from "../lib/db";

type FleetSystemColumns = SqlRow<typeof fleetSystems>;

/** A system as the fleet store reads it: its D1 id as `id`, its state by name (fleet/state.ts). */
export type SystemMetricRow = Pick<
  FleetSystemColumns,
  | "name"
  | "provider"
  | "provider_system_id"
  | "capacity_w"
  | "power_w"
  | "energy_today_wh"
  | "data_time"
  | "site_id"
  | "site_name"
  | "site_capacity_kw"
  | "address"
  | "latitude"
  | "longitude"
  | "timezone"
  | "location_key"
> & { id: FleetSystemColumns["system_id"]; state: SystemState };

/** An inverter with its system's D1 id and its state by name. */
export type InverterMetricRow = Pick<FleetSystemColumns, "system_id"> &
  Pick<SqlRow<typeof fleetInverters>, "serial" | "power_w" | "energy_today_wh" | "temperature_c"> & {
    state: SystemState;
  };

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
    .all<{
      key: SqlRow<typeof irradianceHourly>["location_key"];
      start: SqlRow<typeof irradianceHourly>["hour_start"];
      wh_m2: number;
      hours: number;
    }>();
  return rows.results;
}
