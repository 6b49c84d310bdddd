import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { moveLegacyFleetData } from "../../../worker/engines/legacy-fleet-move";
import { storeOf, storeSql } from "../fleet-helpers";
import { insertOrg, insertSystem } from "./fleet-fixtures";

const HOUR = 3_600_000;

const legacyTables = async () =>
  (
    await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'fleet_import_%' ORDER BY name",
    ).all<{
      name: string;
    }>()
  ).results.map((r) => r.name);

/**
 * An upgrade from a version that kept readings in D1: migration 0007 copied them into
 * fleet_import_* tables (with their organisation) before 0008 dropped the originals. These rows
 * are what it would have copied.
 */
async function seedLegacyRows(orgId: string, system: { id: string; inverterIds: string[] }, base: number) {
  const inverterId = system.inverterIds[0] ?? "";
  const statements = [
    ...[0, 1, 2].map((i) =>
      env.DB.prepare(
        "INSERT INTO fleet_import_system_readings (org_id, system_id, time, power_w, energy_today_wh, state) VALUES (?, ?, ?, ?, ?, 'online')",
      ).bind(orgId, system.id, base + i * 300_000, 1000 + i * 100, 500 + i * 100),
    ),
    env.DB.prepare(
      "INSERT INTO fleet_import_inverter_readings (org_id, inverter_id, time, power_w, energy_today_wh, temperature_c, state) VALUES (?, ?, ?, 1000, 500, 38.2, 'online')",
    ).bind(orgId, inverterId, base),
    env.DB.prepare(
      "INSERT INTO fleet_import_hourly (org_id, system_id, hour_start, avg_power_w, samples) VALUES (?, ?, ?, 800.4, 12), (?, ?, ?, 1100, 3)",
    ).bind(orgId, system.id, base - HOUR, orgId, system.id, base),
    env.DB.prepare(
      "INSERT INTO fleet_import_daily (org_id, system_id, date, energy_wh, peak_power_w) VALUES (?, ?, '2026-05-31', 31000, 4200)",
    ).bind(orgId, system.id),
    env.DB.prepare(
      "INSERT INTO fleet_import_live (org_id, system_id, state, power_w, energy_today_wh, energy_total_wh, data_time) VALUES (?, ?, 'online', 1200, 700, 9000000, ?)",
    ).bind(orgId, system.id, base + 600_000),
    env.DB.prepare(
      "INSERT INTO fleet_import_inverter_live (org_id, inverter_id, system_id, state, power_w, energy_today_wh, temperature_c, data_time) VALUES (?, ?, ?, 'online', 1200, 700, 40, ?)",
    ).bind(orgId, inverterId, system.id, base + 600_000),
  ];
  await env.DB.batch(statements);
}

describe("moving fleet data an upgrade left in D1 into the fleet stores", () => {
  it("moves every organisation's rows into its own store in bounded steps, then drops the D1 tables", async () => {
    expect(await legacyTables()).toHaveLength(6);
    const orgA = await insertOrg("A");
    const orgB = await insertOrg("B");
    const systemA = await insertSystem(orgA, { inverters: 1 });
    const systemB = await insertSystem(orgB, { inverters: 1 });
    const base = Date.UTC(2026, 5, 1, 10, 0);
    await seedLegacyRows(orgA, systemA, base);
    await seedLegacyRows(orgB, systemB, base);

    const first = await moveLegacyFleetData(env, 4);
    expect(first.done).toBe(false);
    // A table is dropped once it is empty; the others wait for the next steps.
    expect((await legacyTables()).length).toBeGreaterThan(0);
    let last = first;
    for (let step = 0; step < 20 && !last.done; step++) last = await moveLegacyFleetData(env, 4);
    expect(last.done).toBe(true);
    expect(await legacyTables()).toEqual([]);

    for (const [orgId, system] of [
      [orgA, systemA],
      [orgB, systemB],
    ] as const) {
      const readings = await storeSql(orgId, "SELECT t, power_w FROM system_readings ORDER BY t");
      // The three readings; the live values are from the last one's time, so they add no point.
      expect(readings.map((r) => r.power_w)).toEqual([1000, 1100, 1200]);
      const hours = await storeSql(
        orgId,
        "SELECT hour, avg_power_w, samples FROM system_hourly ORDER BY hour",
      );
      expect(hours[0]).toEqual({ hour: base / HOUR - 1, avg_power_w: 800, samples: 12 });
      const [day] = await storeSql(
        orgId,
        "SELECT date, energy_wh FROM system_daily WHERE date = '2026-05-31'",
      );
      expect(day).toEqual({ date: "2026-05-31", energy_wh: 31000 });
      const inverterPoints = await storeSql(
        orgId,
        "SELECT power_w, temperature_dc FROM inverter_readings ORDER BY t",
      );
      expect(inverterPoints).toEqual([
        { power_w: 1000, temperature_dc: 382 },
        { power_w: 1200, temperature_dc: 400 },
      ]);
      const [live] = await storeOf(orgId).liveValues(orgId, [system.id]);
      expect(live).toMatchObject({ powerW: 1200, energyTodayWh: 700, dataTime: base + 600_000 });
    }
    // Nothing crossed organisations: each store holds one system.
    const [countA] = await storeSql<{ n: number }>(orgA, "SELECT count(*) AS n FROM systems");
    expect(countA?.n).toBe(1);
  });

  it("has nothing to do on a fresh install", async () => {
    expect(await moveLegacyFleetData(env)).toEqual({ moved: 0, done: true });
  });
});
