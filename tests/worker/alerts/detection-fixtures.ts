import { env } from "cloudflare:workers";
import { detectAlerts } from "../../../worker/engines/detection";
import type { SystemPoint } from "../../../worker/fleet/types";
import { createDb } from "../../../worker/lib/db";
import { insertOrg, insertSystem, storePoints } from "../fleet/fleet-fixtures";

/*
 * Known-answer scenarios: a 10 kW plant in Amsterdam on 21 June 2026 under 800 W/m² from 07:00 to
 * 17:00 UTC (expected 6,605 W), driven in 5-minute steps by an explicit clock: each step stores
 * the scenario's point (if any) and runs detection at that instant.
 */

export const MIN = 60_000;
export const at = (hhmm: string, day = 21, year = 2026) => Date.parse(`${year}-06-${day}T${hhmm}:00Z`);
export const EXPECTED_W = 6605;
export const db = createDb(env.DB);

export interface AlertRow {
  id: string;
  rule: string;
  severity: string;
  resolved: number;
  device_serial: string | null;
  lost_energy_wh: number;
  system_id: string;
  message: string;
  /** JSON of the rule's facts. */
  facts: string | null;
}

/** A plant with a clear sky on 21 and 22 June of `year` (another year for tests on a fake clock). */
export async function plant(inverters = 0, org?: string, year = 2026) {
  const orgId = org ?? (await insertOrg());
  const system = await insertSystem(orgId, { latitude: 52.37, longitude: 4.9, capacityW: 10_000, inverters });
  const hours: string[] = [];
  for (const day of [21, 22]) {
    for (let h = 0; h < 24; h++) {
      const start = Date.UTC(year, 5, day, h);
      hours.push(`('52.37,4.90', ${start}, ${h >= 7 && h < 17 ? 800 : 0})`);
    }
  }
  await env.DB.prepare(
    `INSERT OR REPLACE INTO irradiance_hourly (location_key, hour_start, ghi_wm2) VALUES ${hours.join(", ")}`,
  ).run();
  return { orgId, system };
}

export type Plant = Awaited<ReturnType<typeof plant>>;

/** A system point with the given power per inverter (or whole-system power without inverters). */
export function pointOf(p: Plant, time: number, powers: number[]): SystemPoint {
  const total = powers.reduce((a, b) => a + b, 0);
  return {
    systemId: p.system.id,
    time,
    state: "online",
    powerW: total,
    energyTodayWh: null,
    energyTotalWh: null,
    inverters: p.system.inverterIds.map((inverterId, i) => ({
      inverterId,
      time,
      state: "online",
      powerW: powers[i] ?? 0,
      energyTodayWh: null,
      temperatureC: null,
    })),
  };
}

/** Steps the clock from `from` to `to` (inclusive) every 5 minutes: store the point, detect. */
export async function drive(p: Plant, from: number, to: number, powers: (t: number) => number[] | null) {
  for (let t = from; t <= to; t += 5 * MIN) {
    const values = powers(t);
    if (values) await storePoints(p.orgId, [pointOf(p, t, values)]);
    await detectAlerts({ db, env }, p.orgId, { now: t });
  }
}

export async function alertsOf(orgId: string) {
  const rows = await env.DB.prepare("SELECT * FROM alerts WHERE org_id = ? ORDER BY created_at")
    .bind(orgId)
    .all<AlertRow>();
  return rows.results;
}

export async function historyOf(alertId: string) {
  const rows = await env.DB.prepare(
    "SELECT kind, rule, actor_id, note, facts FROM alert_events WHERE alert_id = ? ORDER BY created_at",
  )
    .bind(alertId)
    .all<{
      kind: string;
      rule: string | null;
      actor_id: string | null;
      note: string | null;
      facts: string | null;
    }>();
  return rows.results;
}
