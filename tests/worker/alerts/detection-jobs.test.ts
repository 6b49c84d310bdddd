import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { detectAfterPage } from "../../../worker/engines/detection";
import type { Env } from "../../../worker/env";
import { DETECTION_INTERVAL_MS } from "../../../worker/fleet/schedule";
import type { FleetStore } from "../../../worker/fleet/store";
import { insertOrg, insertSystem, storePoints } from "../fleet/fleet-fixtures";
import { storeOf } from "../fleet-helpers";
import { alertsOf, at, db, EXPECTED_W, MIN, plant, pointOf } from "./detection-fixtures";

/*
 * The store's alarm runs on the test's clock: Date is faked (the store runs in the tests' isolate),
 * and the scenario day lies years ahead, so no alarm the store sets is ever due on the real clock
 * and workerd never runs one by itself; each run below is the test's.
 */
const YEAR = 2040;
const on = (hhmm: string) => at(hhmm, 21, YEAR);

const alarmOf = (orgId: string) =>
  runInDurableObject(storeOf(orgId), (_store: FleetStore, state) => state.storage.getAlarm());

/** Moves the clock to `t` and runs the organisation's store alarm; answers whether one was set. */
async function alarmAt(orgId: string, t: number) {
  vi.setSystemTime(t);
  return runDurableObjectAlarm(storeOf(orgId));
}

/** A plant that reports until `last` and then falls silent. */
async function silentPlant(last: string) {
  vi.setSystemTime(on(last));
  const p = await plant(0, undefined, YEAR);
  await storePoints(p.orgId, [pointOf(p, on(last), [EXPECTED_W])]);
  return p;
}

const summary = async (orgId: string) =>
  (await alertsOf(orgId)).map((a) => [a.rule, a.severity, a.resolved, a.lost_energy_wh]);

describe("scheduled detection in each organisation's fleet store", { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("raises communication lost from the store's own alarm for a plant that stops reporting at midday", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const p = await silentPlant("12:00");
    // Storing the page scheduled the store's next detection five minutes on.
    expect(await alarmOf(p.orgId)).toBe(on("12:00") + DETECTION_INTERVAL_MS);
    for (let t = on("12:05"); t <= on("12:55"); t += 5 * MIN) {
      expect(await alarmAt(p.orgId, t)).toBe(true);
      expect(await alarmOf(p.orgId)).toBe(t + DETECTION_INTERVAL_MS);
    }
    expect(await alertsOf(p.orgId)).toEqual([]);
    expect(await alarmAt(p.orgId, on("13:00"))).toBe(true);
    const [alert, ...more] = await alertsOf(p.orgId);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({ rule: "communication_lost", severity: "warning", resolved: 0 });
    // One hour of the expected 6,605 W while silent.
    expect(alert?.lost_energy_wh).toBeGreaterThan(EXPECTED_W * 0.9);
    expect(alert?.lost_energy_wh).toBeLessThan(EXPECTED_W * 1.1);
    // Four daylight hours on, the same alert turns critical: repeats update it, never duplicate it.
    for (let t = on("13:05"); t <= on("16:00"); t += 5 * MIN) await alarmAt(p.orgId, t);
    expect((await alertsOf(p.orgId)).map((a) => [a.id, a.rule, a.severity])).toEqual([
      [alert?.id, "communication_lost", "critical"],
    ]);
  });

  it("waits for the schedule: an alarm run before detection is due evaluates nothing", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const p = await silentPlant("12:00");
    // A run at 13:00 is due and raises; one forced a minute later is not due and changes nothing.
    await alarmAt(p.orgId, on("13:00"));
    const raised = await summary(p.orgId);
    expect(raised).toHaveLength(1);
    await alarmAt(p.orgId, on("13:01"));
    expect(await summary(p.orgId)).toEqual(raised);
    expect(await alarmOf(p.orgId)).toBe(on("13:00") + DETECTION_INTERVAL_MS);
  });

  it("schedules nothing for an organisation without systems, and stops when its last system goes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(on("12:00"));
    const orgId = await insertOrg("Empty Solar");
    await storeOf(orgId).ensureDirectory(orgId);
    expect(await alarmOf(orgId)).toBeNull();
    expect(await runDurableObjectAlarm(storeOf(orgId))).toBe(false);

    // A system in D1 reaches the store's directory: detection is scheduled.
    const system = await insertSystem(orgId, { latitude: 52.37, longitude: 4.9 });
    await storeOf(orgId).ensureDirectory(orgId);
    expect(await alarmOf(orgId)).toBe(on("12:00") + DETECTION_INTERVAL_MS);
    // Deleted again: the next run finds no system and leaves nothing scheduled.
    await env.DB.prepare("DELETE FROM monitoring_systems WHERE id = ?").bind(system.id).run();
    expect(await alarmAt(orgId, on("12:05"))).toBe(true);
    expect(await alarmOf(orgId)).toBeNull();
    expect(await alertsOf(orgId)).toEqual([]);
  });

  it("one organisation's alarm never touches another organisation's alerts", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const a = await silentPlant("12:00");
    const b = await silentPlant("12:00");
    for (let t = on("12:05"); t <= on("13:30"); t += 5 * MIN) await alarmAt(a.orgId, t);
    expect((await alertsOf(a.orgId)).map((x) => [x.rule, x.system_id])).toEqual([
      ["communication_lost", a.system.id],
    ]);
    // B's plant is just as silent, but only B's own alarm evaluates it.
    expect(await alertsOf(b.orgId)).toEqual([]);
    const before = await alertsOf(a.orgId);
    for (let t = on("13:35"); t <= on("14:00"); t += 5 * MIN) await alarmAt(b.orgId, t);
    expect((await alertsOf(b.orgId)).map((x) => [x.rule, x.system_id])).toEqual([
      ["communication_lost", b.system.id],
    ]);
    expect(await alertsOf(a.orgId)).toEqual(before);
  });
});

describe("detection after a stored page", () => {
  it("a failing detection is logged and never thrown", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = {
      ...env,
      FLEET_STORE: {
        idFromName: () => {
          throw new Error("store unreachable");
        },
      },
    } as unknown as Env;
    const p = await plant();
    await expect(
      detectAfterPage({ db, env: broken }, p.orgId, [p.system.id], at("12:00")),
    ).resolves.toBeUndefined();
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("store unreachable"));
    errors.mockRestore();
  });
});
