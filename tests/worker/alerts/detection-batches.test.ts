import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { DETECTION_STATEMENTS_PER_BATCH, detectAlerts } from "../../../worker/engines/detection";
import { runGroupedBatches } from "../../../worker/lib/db";
import { storePoints } from "../fleet/fleet-fixtures";
import { alertsOf, at, db, EXPECTED_W, MIN, plant, pointOf } from "./detection-fixtures";

/*
 * A detection run's writes go to D1 in bounded batches (each alert's statements in one), so a
 * fleet-wide outage that opens thousands of alerts never holds D1 in one long transaction.
 */

const probeRows = async () =>
  (await env.DB.prepare("SELECT name FROM batch_probe ORDER BY name").all<{ name: string }>()).results.map(
    (row) => row.name,
  );
const insert = (name: string) => env.DB.prepare("INSERT INTO batch_probe (name) VALUES (?)").bind(name);

describe("grouped D1 batches", () => {
  it("never splits a group, and commits batch by batch: a failing batch keeps the ones before it and nothing of its own", async () => {
    await env.DB.exec("CREATE TABLE IF NOT EXISTS batch_probe (name TEXT PRIMARY KEY)");
    // Groups of 1, 2, 1 and 4 statements, at most 3 a batch: [d1 d2 d3], [d4], [e1 … e4].
    const batches = await runGroupedBatches(
      db,
      [[insert("d1")], [insert("d2"), insert("d3")], [insert("d4")], ["e1", "e2", "e3", "e4"].map(insert)],
      3,
    );
    expect(batches).toBe(3);
    expect(await probeRows()).toEqual(["d1", "d2", "d3", "d4", "e1", "e2", "e3", "e4"]);
    // The third batch's second statement breaks the key: its first is rolled back with it.
    let refused = false;
    try {
      await runGroupedBatches(
        db,
        [[insert("f1"), insert("f2")], [insert("g1")], [insert("h1"), insert("d1")], [insert("i1")]],
        3,
      );
    } catch {
      refused = true;
    }
    expect(refused).toBe(true);
    expect(await probeRows()).toEqual(["d1", "d2", "d3", "d4", "e1", "e2", "e3", "e4", "f1", "f2", "g1"]);
  });
});

describe("detection opening alerts across the fleet at once", { timeout: 120_000 }, () => {
  it("opens every silent plant's alert with its history when they take more than one batch", async () => {
    // Each warning opened writes its alert, its history entry and the members' notifications.
    const count = Math.ceil(DETECTION_STATEMENTS_PER_BATCH / 3) + 20;
    const first = await plant(0);
    const plants = [first];
    while (plants.length < count) plants.push(await plant(0, first.orgId));
    await storePoints(
      first.orgId,
      plants.map((p) => pointOf(p, at("12:00"), [EXPECTED_W])),
    );
    for (let t = at("12:05"); t < at("13:00"); t += 5 * MIN) {
      await detectAlerts({ db, env }, first.orgId, { now: t });
    }
    expect(await alertsOf(first.orgId)).toEqual([]);
    // An hour silent at 13:00: every plant's alert opens in this run, in batches of bounded size.
    const batch = vi.spyOn(env.DB, "batch");
    try {
      expect((await detectAlerts({ db, env }, first.orgId, { now: at("13:00") })).opened).toBe(count);
      const sizes = batch.mock.calls.map(([statements]) => statements.length);
      expect(sizes.length).toBeGreaterThan(1);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(DETECTION_STATEMENTS_PER_BATCH);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(count * 3);
    } finally {
      batch.mockRestore();
    }
    const alerts = await alertsOf(first.orgId);
    expect(alerts.map((a) => [a.rule, a.resolved])).toEqual(plants.map(() => ["communication_lost", 0]));
    expect(new Set(alerts.map((a) => a.system_id))).toEqual(new Set(plants.map((p) => p.system.id)));
    const opened = await env.DB.prepare(
      `SELECT count(*) AS n FROM alert_events e JOIN alerts a ON a.id = e.alert_id
       WHERE a.org_id = ? AND e.kind = 'opened'`,
    )
      .bind(first.orgId)
      .first<{ n: number }>();
    expect(opened?.n).toBe(count);
  });
});
