import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import { WORLD_SITES } from "../../../sandbox/simulation";
import { solisPlants } from "../../../sandbox/solis";
import type { SyncMessage } from "../../../worker/env";
import { createDb } from "../../../worker/lib/db";
import { localBudget } from "../../../worker/providers/budget";
import { solisAdapter } from "../../../worker/providers/solis";
import { PLAN_PLANTS_PER_STEP, planPlants } from "../../../worker/services/history-backfill";
import { runHistoryUnit, startHistoryRun } from "../../../worker/sync/history-run";
import type { SyncDeps } from "../../../worker/sync/run";
import { storeOf } from "../fleet-helpers";
import { registerOwner } from "../helpers";
import { storeConnection } from "./connection-fixtures";

const solis = sandboxAccounts.solis[0];
const PLANTS = 20_000;
const DAYS = 31;
/** No value the plan writes, sends or answers may be larger than this. */
const MAX_VALUE_BYTES = 100 * 1024;

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/**
 * A new 20,000-plant connection's history plan (every plant × 30 days and today) stored,
 * claimed and finished, with every stored row, queue message and store answer measured.
 */
describe("a history plan at fleet size", { timeout: 300_000 }, () => {
  it("plans 20,000 plants × 31 days in rows, messages and answers none larger than 100 KB, and works it plant by plant", async () => {
    const owner = await registerOwner();
    const connectionId = await storeConnection(owner.orgId, "solis", {
      keyId: solis.keyId,
      keySecret: solis.keySecret,
    });
    // The connection's plants in twelve zones; the first three (by id) are the sandbox account's
    // stations, so their days can be read from the vendor for real.
    const stations = solisPlants(solis);
    const zones = WORLD_SITES.map(
      (site, k) => `(${k}, ${site.latitude}, ${site.longitude}, '${site.timezone}')`,
    ).join(", ");
    const now = Date.now();
    await env.DB.prepare(
      `INSERT INTO monitoring_systems (id, org_id, connection_id, provider, provider_system_id, name, capacity_w,
         state, latitude, longitude, timezone, created_at, updated_at)
       WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${PLANTS - 1}),
         zones(k, lat, lon, tz) AS (VALUES ${zones})
       SELECT printf('plan-%05d', i), ?1, ?2, 'solis',
         CASE i WHEN 0 THEN ?3 WHEN 1 THEN ?4 WHEN 2 THEN ?5 ELSE 'S' || i END,
         'Plant ' || i, 10000, 'online', lat, lon, tz, ?6, ?6
       FROM n JOIN zones ON zones.k = n.i % ${WORLD_SITES.length}`,
    )
      .bind(owner.orgId, connectionId, stations[0]?.id, stations[1]?.id, stations[2]?.id, now)
      .run();
    await storeOf(owner.orgId).ensureDirectory(owner.orgId);

    let fakeClock = 0;
    const sandbox = createSandbox({ clock: () => fakeClock });
    const sent: SyncMessage[] = [];
    const deps: SyncDeps = {
      db: createDb(env.DB),
      env: { ...env, SYNC_HISTORY: "on" },
      now: () => Date.now(),
      fetch: (request: Request) => Promise.resolve(sandbox.fetch(request)),
      sleep: async (ms: number) => {
        fakeClock += ms;
      },
      budget: localBudget(solisAdapter.callPlan(solis)),
      enqueue: async (message) => {
        sent.push(message);
      },
    };
    const connectionRow = await createDb(env.DB).query.providerConnections.findFirst({
      where: (c, { eq }) => eq(c.id, connectionId),
    });
    if (!connectionRow) throw new Error("connection missing");
    await startHistoryRun(deps, connectionRow);
    const first = sent.shift();
    if (first?.kind !== "history") throw new Error(`expected a history unit, got ${JSON.stringify(first)}`);
    const runId = first.runId;

    // The store's answer to one planning step: its largest value.
    const someSystems = await env.DB.prepare(
      "SELECT id, provider_system_id AS providerSystemId FROM monitoring_systems WHERE org_id = ? ORDER BY id LIMIT ?",
    )
      .bind(owner.orgId, PLAN_PLANTS_PER_STEP)
      .all<{ id: string; providerSystemId: string }>();
    const stepAnswer = await planPlants(deps, owner.orgId, someSystems.results);
    expect(stepAnswer).toHaveLength(PLAN_PLANTS_PER_STEP);
    expect(bytes(stepAnswer)).toBeLessThan(MAX_VALUE_BYTES);
    expect(bytes(someSystems.results.map((s) => s.id))).toBeLessThan(MAX_VALUE_BYTES);

    // Planning: one unit per 100 plants, each committing its rows and the last plant planned.
    let unit = 0;
    let largestCursor = 0;
    for (;;) {
      const outcome = await runHistoryUnit(deps, runId, unit);
      expect(outcome).toBe("continue");
      unit++;
      const run = await env.DB.prepare("SELECT cursor, pages_total FROM sync_runs WHERE id = ?")
        .bind(runId)
        .first<{ cursor: string | null; pages_total: number }>();
      largestCursor = Math.max(largestCursor, run?.cursor?.length ?? 0);
      if (run?.cursor === null) break;
    }
    // A step past a full last one finds no plant left.
    expect(unit).toBe(PLANTS / PLAN_PLANTS_PER_STEP + 1);
    const planned = await env.DB.prepare(
      `SELECT count(*) AS plants, sum(json_array_length(dates)) AS days, max(length(dates)) AS largestDates,
         (SELECT pages_total FROM sync_runs WHERE id = ?1) AS total,
         (SELECT max(length(CAST(cursor AS BLOB))) FROM sync_runs WHERE id = ?1) AS cursorBytes
       FROM history_plan_plants WHERE run_id = ?1`,
    )
      .bind(runId)
      .first<{
        plants: number;
        days: number;
        largestDates: number;
        total: number;
        cursorBytes: number | null;
      }>();
    expect(planned?.plants).toBe(PLANTS);
    // Every plant's 30 past days, and today where daylight has passed there without points.
    expect(planned?.days).toBeGreaterThanOrEqual(PLANTS * (DAYS - 1));
    expect(planned?.days).toBeLessThanOrEqual(PLANTS * DAYS);
    expect(planned?.total).toBe(planned?.days);
    expect(planned?.largestDates ?? 0).toBeLessThanOrEqual(DAYS * 13 + 2);
    expect(largestCursor).toBeLessThan(100);
    // The run's row, the largest plan row and every message are small.
    const largestRow = await env.DB.prepare(
      `SELECT max(length(run_id) + length(system_id) + length(provider_system_id) + length(timezone) + length(dates)) AS n
       FROM history_plan_plants WHERE run_id = ?`,
    )
      .bind(runId)
      .first<{ n: number }>();
    expect(largestRow?.n ?? Number.POSITIVE_INFINITY).toBeLessThan(MAX_VALUE_BYTES);
    const runRow = await env.DB.prepare("SELECT * FROM sync_runs WHERE id = ?").bind(runId).first();
    expect(bytes(runRow)).toBeLessThan(MAX_VALUE_BYTES);

    // Every day number belongs to exactly one plant: the rows' day ranges follow each other.
    const gaps = await env.DB.prepare(
      `SELECT count(*) AS n FROM (
         SELECT first_day, lag(first_day + json_array_length(dates), 1, 0) OVER (ORDER BY first_day) AS expected
         FROM history_plan_plants WHERE run_id = ?) WHERE first_day != expected`,
    )
      .bind(runId)
      .first<{ n: number }>();
    expect(gaps?.n).toBe(0);

    // Claimed and finished unit by unit: the first plant's days read from the vendor, its row gone after its last.
    const firstPlant = await env.DB.prepare(
      "SELECT json_array_length(dates) AS days FROM history_plan_plants WHERE run_id = ? AND first_day = 0",
    )
      .bind(runId)
      .first<{ days: number }>();
    const firstDays = firstPlant?.days ?? 0;
    expect(firstDays).toBeGreaterThanOrEqual(DAYS - 1);
    for (let day = 0; day < firstDays; day++) {
      expect(await runHistoryUnit(deps, runId, unit)).toBe("continue");
      // A redelivered unit is a duplicate.
      expect(await runHistoryUnit(deps, runId, unit)).toBe("stale");
      unit++;
    }
    const afterFirst = await env.DB.prepare(
      `SELECT (SELECT pages_done FROM sync_runs WHERE id = ?1) AS done,
         (SELECT count(*) FROM history_plan_plants WHERE run_id = ?1) AS plants,
         (SELECT min(first_day) FROM history_plan_plants WHERE run_id = ?1) AS next`,
    )
      .bind(runId)
      .first<{ done: number; plants: number; next: number }>();
    expect(afterFirst).toEqual({ done: firstDays, plants: PLANTS - 1, next: firstDays });
    const stored = await storeOf(owner.orgId).historyGaps(owner.orgId, ["plan-00000"], {
      now: Date.now(),
      days: DAYS,
    });
    expect(stored[0]?.dates.filter((date) => date < new Date().toISOString().slice(0, 10))).toEqual([]);
    for (const message of sent) expect(bytes(message)).toBeLessThan(1024);

    // The connection goes: its runs and what is left of their plans go with it.
    await env.DB.prepare("DELETE FROM provider_connections WHERE id = ?").bind(connectionId).run();
    const leftRows = await env.DB.prepare("SELECT count(*) AS n FROM history_plan_plants WHERE run_id = ?")
      .bind(runId)
      .first<{ n: number }>();
    expect(leftRows?.n).toBe(0);
  });
});
