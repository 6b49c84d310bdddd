import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { detectAlerts } from "../../../worker/engines/detection";
import { alertsOf, at, db, drive, EXPECTED_W, historyOf, plant } from "./detection-fixtures";

const expectWithin10Pct = (actual: number, expected: number) => {
  expect(actual).toBeGreaterThan(expected * 0.9);
  expect(actual).toBeLessThan(expected * 1.1);
};

// Each scenario runs dozens of 5-minute steps (a store write and a detection run each).
describe("detection scenarios", { timeout: 60_000 }, () => {
  it("counts a silent plant's hours whose weather arrived after the alert opened", async () => {
    const p = await plant();
    // The weather service has not answered for 11:00-12:59 yet.
    const missing = [at("11:00"), at("12:00")];
    const stored = await env.DB.prepare(
      "SELECT location_key, hour_start, ghi_wm2 FROM irradiance_hourly WHERE hour_start IN (?, ?)",
    )
      .bind(...missing)
      .all<{ location_key: string; hour_start: number; ghi_wm2: number }>();
    await env.DB.prepare("DELETE FROM irradiance_hourly WHERE hour_start IN (?, ?)")
      .bind(...missing)
      .run();
    await drive(p, at("09:00"), at("11:00"), () => [EXPECTED_W]);
    await drive(p, at("11:05"), at("13:00"), () => null);
    const [opened] = await alertsOf(p.orgId);
    expect(opened).toMatchObject({ rule: "communication_lost", resolved: 0 });
    // Only 12:00 onwards... and not even that: the hours without weather count nothing yet.
    expect(opened?.lost_energy_wh ?? 0).toBeLessThan(0.2 * EXPECTED_W);
    // The weather comes; the next runs count the two silent hours it covers.
    for (const hour of stored.results) {
      await env.DB.prepare(
        "INSERT INTO irradiance_hourly (location_key, hour_start, ghi_wm2) VALUES (?, ?, ?)",
      )
        .bind(hour.location_key, hour.hour_start, hour.ghi_wm2)
        .run();
    }
    await drive(p, at("13:05"), at("14:00"), () => null);
    const [alert] = await alertsOf(p.orgId);
    // 11:00-14:00 silent under a clear sky: three hours of expected energy.
    expectWithin10Pct(alert?.lost_energy_wh ?? 0, 3 * EXPECTED_W);
  });

  it("a plant that stops reporting at midday: communication lost, critical after 4 daylight hours", async () => {
    const p = await plant();
    const producing = () => [EXPECTED_W];
    await drive(p, at("09:00"), at("12:00"), producing);
    await drive(p, at("12:05"), at("12:55"), () => null);
    expect(await alertsOf(p.orgId)).toEqual([]);

    await drive(p, at("13:00"), at("13:00"), () => null);
    let [alert, ...others] = await alertsOf(p.orgId);
    expect(others).toEqual([]);
    expect(alert).toMatchObject({ rule: "communication_lost", severity: "warning", resolved: 0 });
    expectWithin10Pct(alert?.lost_energy_wh ?? 0, EXPECTED_W);
    // What it found, as data for each reader's language, and the same in English.
    const silentSince = new Date(at("12:00")).toISOString();
    expect(JSON.parse(alert?.facts ?? "null")).toEqual({
      kind: "no_data",
      since: silentSince,
      daylightMinutes: 60,
    });
    expect(alert?.message).toBe("No data since 12:00 UTC (60 min of daylight)");

    await drive(p, at("13:05"), at("16:00"), () => null);
    [alert, ...others] = await alertsOf(p.orgId);
    expect(others).toEqual([]);
    expect(alert).toMatchObject({ rule: "communication_lost", severity: "critical", resolved: 0 });
    // Four silent hours of expected energy.
    expectWithin10Pct(alert?.lost_energy_wh ?? 0, 4 * EXPECTED_W);

    await drive(p, at("16:05"), at("16:10"), producing);
    expect((await alertsOf(p.orgId))[0]?.resolved).toBe(0);
    await drive(p, at("16:15"), at("16:30"), producing);
    const after = await alertsOf(p.orgId);
    expect(after).toHaveLength(1);
    expect(after[0]?.resolved).toBe(1);
    const history = await historyOf(after[0]?.id as string);
    expect(history.map((e) => [e.kind, e.rule, e.actor_id])).toEqual([
      ["opened", "communication_lost", null],
      ["updated", "communication_lost", null],
      ["resolved", "communication_lost", null],
    ]);
    expect(history.map((e) => [e.note, JSON.parse(e.facts ?? "null")])).toEqual([
      [
        "No data since 12:00 UTC (60 min of daylight)",
        { kind: "no_data", since: silentSince, daylightMinutes: 60 },
      ],
      ["Severity warning → critical", { kind: "severity_changed", from: "warning", to: "critical" }],
      ["Condition gone", { kind: "condition_gone" }],
    ]);
  });

  it("a plant at 0 W under a clear sky: no production, critical, after 30 minutes", async () => {
    const p = await plant();
    await drive(p, at("10:00"), at("10:55"), () => [EXPECTED_W]);
    await drive(p, at("11:00"), at("11:25"), () => [0]);
    expect(await alertsOf(p.orgId)).toEqual([]);
    await drive(p, at("11:30"), at("12:00"), () => [0]);
    const [alert, ...others] = await alertsOf(p.orgId);
    expect(others).toEqual([]);
    expect(alert).toMatchObject({ rule: "no_production", severity: "critical", resolved: 0 });
    // One hour at 0 W (11:00 to 12:00).
    expectWithin10Pct(alert?.lost_energy_wh ?? 0, EXPECTED_W);

    await drive(p, at("12:05"), at("12:10"), () => [EXPECTED_W]);
    expect((await alertsOf(p.orgId))[0]?.resolved).toBe(0);
    await drive(p, at("12:15"), at("13:30"), () => [EXPECTED_W]);
    const after = await alertsOf(p.orgId);
    expect(after.map((a) => [a.rule, a.resolved])).toEqual([["no_production", 1]]);
    expectWithin10Pct(after[0]?.lost_energy_wh ?? 0, EXPECTED_W);
  });

  it("a plant at 60 % of expected: underperformance, warning, once 2 hours are covered", async () => {
    const p = await plant();
    const low = Math.round(0.6 * EXPECTED_W);
    await drive(p, at("09:00"), at("10:50"), () => [low]);
    expect(await alertsOf(p.orgId)).toEqual([]);
    await drive(p, at("10:55"), at("12:00"), () => [low]);
    const [alert, ...others] = await alertsOf(p.orgId);
    expect(others).toEqual([]);
    expect(alert).toMatchObject({ rule: "underperformance", severity: "warning", resolved: 0 });
    // 40 % of expected over 09:00 to 12:00.
    expectWithin10Pct(alert?.lost_energy_wh ?? 0, 3 * 0.4 * EXPECTED_W);

    await drive(p, at("12:05"), at("14:00"), () => [EXPECTED_W]);
    const after = await alertsOf(p.orgId);
    expect(after.map((a) => [a.rule, a.resolved])).toEqual([["underperformance", 1]]);
  });

  it("one dead inverter beside a producing one: inverter down for that inverter only", async () => {
    const p = await plant(2);
    const half = Math.round(EXPECTED_W / 2);
    await drive(p, at("09:00"), at("09:25"), () => [half, 0]);
    expect(await alertsOf(p.orgId)).toEqual([]);
    await drive(p, at("09:30"), at("10:55"), () => [half, 0]);
    const [alert, ...others] = await alertsOf(p.orgId);
    expect(others).toEqual([]);
    const [serial] = (
      await env.DB.prepare("SELECT serial FROM inverters WHERE id = ?").bind(p.system.inverterIds[1]).all<{
        serial: string;
      }>()
    ).results;
    expect(alert).toMatchObject({
      rule: "inverter_down",
      severity: "warning",
      resolved: 0,
      device_serial: serial?.serial,
    });
    // Two hours of the producing inverter's power.
    expectWithin10Pct(alert?.lost_energy_wh ?? 0, 2 * half);

    await drive(p, at("11:00"), at("12:00"), () => [half, half]);
    const after = await alertsOf(p.orgId);
    expect(after.map((a) => [a.rule, a.resolved])).toEqual([["inverter_down", 1]]);
  });

  it("a night without data raises nothing", async () => {
    const p = await plant();
    await drive(p, at("19:00"), at("20:30"), () => [50]);
    // Silent from 20:30 to 03:30 UTC, the sun below 5° at the plant all along.
    await drive(p, at("20:35"), at("03:25", 22), () => null);
    await drive(p, at("03:30", 22), at("05:00", 22), () => [100]);
    expect(await alertsOf(p.orgId)).toEqual([]);
  });

  it("updates the open alert on a repeat, never duplicating it", async () => {
    const p = await plant();
    await drive(p, at("11:00"), at("11:30"), () => [0]);
    const [first] = await alertsOf(p.orgId);
    // The same instant evaluated again (a page and the cron) adds nothing.
    await detectAlerts({ db, env }, p.orgId, { now: at("11:30") });
    await detectAlerts({ db, env }, p.orgId, { now: at("11:30"), systemIds: [p.system.id] });
    expect(await alertsOf(p.orgId)).toEqual([first]);
    await drive(p, at("11:35"), at("11:45"), () => [0]);
    const rows = await alertsOf(p.orgId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id).toBe(first?.id);
    expect(rows[0]?.lost_energy_wh).toBeGreaterThan(first?.lost_energy_wh ?? 0);
    expect((await historyOf(first?.id as string)).map((e) => e.kind)).toEqual(["opened"]);
  });

  it("raises nothing for a disabled rule", async () => {
    const p = await plant();
    await env.DB.prepare(
      `INSERT INTO alert_rules (org_id, rule, enabled, delay_minutes, clear_minutes, window_minutes, threshold_pct, updated_at)
       VALUES (?, 'no_production', 0, 30, 15, NULL, 1, ?)`,
    )
      .bind(p.orgId, Date.now())
      .run();
    await drive(p, at("11:00"), at("12:30"), () => [0]);
    expect(await alertsOf(p.orgId)).toEqual([]);
  });
});
