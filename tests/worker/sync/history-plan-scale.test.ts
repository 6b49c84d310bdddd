import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { solisPlants } from "../../../sandbox/solis";
import { createDb } from "../../../worker/lib/db";
import { PLAN_PLANTS_PER_STEP, planPlants } from "../../../worker/sync/history-backfill";
import { runHistoryUnit, startHistoryRun } from "../../../worker/sync/history-run";
import { openSource } from "../../../worker/sync/source";
import { storedPoints, storeOf } from "../fleet-helpers";
import { registerOwner } from "../helpers";
import { historyHarness, storeConnection } from "./connection-fixtures";

const world = sandboxAccounts.solis[3];
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
  it("plans 20,000 plants × 31 days in rows, messages and answers none larger than 100 KB, and works it newest day first", async () => {
    const owner = await registerOwner();
    const connectionId = await storeConnection(owner.orgId, "solis", {
      keyId: world.keyId,
      keySecret: world.keySecret,
    });
    // The connection's plants are the sandbox's 20,000 stations in twelve zones, so any day the
    // run claims can be read from the vendor for real.
    const stations = solisPlants(world);
    expect(stations).toHaveLength(PLANTS);
    const now = Date.now();
    for (let i = 0; i < PLANTS; i += 1000) {
      const chunk = stations.slice(i, i + 1000).map((p, k) => ({
        id: `plan-${String(i + k).padStart(5, "0")}`,
        vendorId: p.id,
        name: p.name,
        lat: p.latitude,
        lon: p.longitude,
        tz: p.timezone,
      }));
      await env.DB.prepare(
        `INSERT INTO monitoring_systems (id, org_id, connection_id, provider, provider_system_id, name, capacity_w,
           state, latitude, longitude, timezone, created_at, updated_at)
         SELECT j.value ->> 'id', ?1, ?2, 'solis', j.value ->> 'vendorId', j.value ->> 'name', 10000, 'online',
           j.value ->> 'lat', j.value ->> 'lon', j.value ->> 'tz', ?3, ?3
         FROM json_each(?4) AS j`,
      )
        .bind(owner.orgId, connectionId, now, JSON.stringify(chunk))
        .run();
    }
    await storeOf(owner.orgId).ensureDirectory(owner.orgId);

    const { deps, sent } = historyHarness(world);
    const connectionRow = await createDb(env.DB).query.providerConnections.findFirst({
      where: (c, { eq }) => eq(c.id, connectionId),
    });
    if (!connectionRow) throw new Error("connection missing");
    await startHistoryRun(deps, await openSource(deps, connectionRow));
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
      `SELECT count(*) AS plants, count(DISTINCT system_id) AS distinctPlants,
         sum(json_array_length(dates)) AS days, max(length(dates)) AS largestDates,
         (SELECT pages_total FROM sync_runs WHERE id = ?1) AS total,
         count(DISTINCT timezone) AS zones
       FROM history_plan_plants WHERE run_id = ?1`,
    )
      .bind(runId)
      .first<{
        plants: number;
        distinctPlants: number;
        days: number;
        largestDates: number;
        total: number;
        zones: number;
      }>();
    expect(planned?.plants).toBe(PLANTS);
    expect(planned?.distinctPlants).toBe(PLANTS);
    expect(planned?.zones).toBeGreaterThanOrEqual(10);
    // Every plant's 30 past days, and today where daylight has passed there without points.
    expect(planned?.days).toBeGreaterThanOrEqual(PLANTS * (DAYS - 1));
    expect(planned?.days).toBeLessThanOrEqual(PLANTS * DAYS);
    expect(planned?.total).toBe(planned?.days);
    expect(planned?.largestDates ?? 0).toBeLessThanOrEqual(DAYS * 13 + 2);
    expect(largestCursor).toBeLessThan(100);
    // The run's row, the largest plan row and every message are small.
    const largestRow = await env.DB.prepare(
      `SELECT max(length(run_id) + length(system_id) + length(provider_system_id) + length(timezone) + length(dates)
         + length(next_date)) AS n
       FROM history_plan_plants WHERE run_id = ?`,
    )
      .bind(runId)
      .first<{ n: number }>();
    expect(largestRow?.n ?? Number.POSITIVE_INFINITY).toBeLessThan(MAX_VALUE_BYTES);
    const runRow = await env.DB.prepare("SELECT * FROM sync_runs WHERE id = ?").bind(runId).first();
    expect(bytes(runRow)).toBeLessThan(MAX_VALUE_BYTES);

    // Claimed and finished unit by unit, newest day first across the fleet: each unit stores the
    // newest day left anywhere, read from the vendor; a redelivered unit is a duplicate.
    const newestLeft = async () =>
      (
        await env.DB.prepare("SELECT max(next_date) AS d FROM history_plan_plants WHERE run_id = ?")
          .bind(runId)
          .first<{ d: string }>()
      )?.d ?? "";
    const UNITS = 40;
    const claimed: string[] = [];
    for (let k = 0; k < UNITS; k++) {
      const newest = await newestLeft();
      expect(await runHistoryUnit(deps, runId, unit)).toBe("continue");
      expect(await runHistoryUnit(deps, runId, unit)).toBe("stale");
      const fetched = await env.DB.prepare(
        "SELECT count(*) AS n FROM history_plan_plants WHERE run_id = ? AND done > 0",
      )
        .bind(runId)
        .first<{ n: number }>();
      expect(fetched?.n).toBe(k + 1);
      claimed.push(newest);
      unit++;
    }
    // Days were taken newest first (never an older day while a newer one was left).
    expect([...claimed].sort().reverse()).toEqual(claimed);
    const afterUnits = await env.DB.prepare(
      `SELECT (SELECT pages_done FROM sync_runs WHERE id = ?1) AS done,
         (SELECT count(*) FROM history_plan_plants WHERE run_id = ?1) AS plants`,
    )
      .bind(runId)
      .first<{ done: number; plants: number }>();
    expect(afterUnits).toEqual({ done: UNITS, plants: PLANTS });
    // Forty plants got their newest missing day from the vendor: each has points of it, but the
    // account's plant silent since yesterday 14:00, whose claimed day may begin after that.
    const claimedRows = await env.DB.prepare(
      "SELECT system_id AS id FROM history_plan_plants WHERE run_id = ? AND done > 0",
    )
      .bind(runId)
      .all<{ id: string }>();
    const silentId = `plan-${String(stations.findIndex((p) => p.silentSinceYesterday)).padStart(5, "0")}`;
    const stored = [{ n: new Set((await storedPoints(owner.orgId)).map((p) => p.sys)).size }];
    expect(claimedRows.results).toHaveLength(UNITS);
    expect(stored[0]?.n).toBeGreaterThanOrEqual(
      claimedRows.results.filter((row) => row.id !== silentId).length,
    );
    expect(stored[0]?.n).toBeLessThanOrEqual(UNITS);
    for (const message of sent) expect(bytes(message)).toBeLessThan(1024);

    // The connection goes: its runs and what is left of their plans go with it.
    await env.DB.prepare("DELETE FROM provider_connections WHERE id = ?").bind(connectionId).run();
    const leftRows = await env.DB.prepare("SELECT count(*) AS n FROM history_plan_plants WHERE run_id = ?")
      .bind(runId)
      .first<{ n: number }>();
    expect(leftRows?.n).toBe(0);
  });
});
