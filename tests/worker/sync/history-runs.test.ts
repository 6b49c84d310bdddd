import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import type { SyncRunView } from "../../../schema/api/providers";
import type { LiveMessage } from "../../../schema/live";
import type { SyncMessage } from "../../../worker/env";
import { runHistoryUnit } from "../../../worker/sync/history-run";
import { consumeSyncMessage } from "../../../worker/sync/queue-consumer";
import { driveRun, YIELD_DELAY_SECONDS } from "../../../worker/sync/run";
import { RESUME_STALLED_AFTER_MS } from "../../../worker/sync/schedule";
import { tendStalledRuns } from "../../../worker/sync/stalled-runs";
import { syncConnection } from "../../../worker/sync/sync-connection";
import type { SyncDeps } from "../../../worker/sync/types";
import { storedPoints, storeSql } from "../fleet-helpers";
import { call, expectStatus, registerOwner, type TestUser } from "../helpers";
import { connect, within } from "../socket-helpers";
import { historyHarness, storeConnection } from "./connection-fixtures";

const solis = sandboxAccounts.solis[0];

const harness = () => historyHarness(solis);

const solisConnection = (owner: TestUser) =>
  storeConnection(owner.orgId, "solis", { keyId: solis.keyId, keySecret: solis.keySecret });

const runView = async (owner: TestUser, runId: string) =>
  expectStatus<SyncRunView>(await call(`/api/sync-runs/${runId}`, { token: owner.token }), 200);

const storedCounts = async (orgId: string) => {
  const [rollups] = await storeSql<{ hourly: number; daily: number; fetched: number }>(
    orgId,
    `SELECT (SELECT count(*) FROM system_hourly) AS hourly, (SELECT count(*) FROM system_daily) AS daily,
       (SELECT count(*) FROM history_days) AS fetched`,
  );
  return [{ readings: (await storedPoints(orgId)).length, ...rollups }];
};

/** Runs collected messages until the queue is empty. */
async function drain(deps: SyncDeps, sent: SyncMessage[]) {
  for (let message = sent.shift(); message; message = sent.shift()) await consumeSyncMessage(deps, message);
}

describe("history runs after a sync", { timeout: 120_000 }, () => {
  it("a scheduled start that finds a history unit on the connection comes back once history made way", async () => {
    const owner = await registerOwner();
    const connectionId = await solisConnection(owner);
    const { deps, sent } = harness();
    expect((await syncConnection(deps, connectionId, "manual")).status).toBe("success");
    const first = sent.shift();
    if (first?.kind !== "history") throw new Error(`expected a history unit, got ${JSON.stringify(first)}`);
    expect(await runHistoryUnit(deps, first.runId, 0)).toBe("continue");
    // A day unit holds the lease as the connection's scheduled start arrives, due a second ago.
    await env.DB.prepare(
      "UPDATE provider_connections SET next_sync_at = ?, lease_run_id = ?, lease_until = ? WHERE id = ?",
    )
      .bind(Date.now() - 1000, first.runId, Date.now() + 60_000, connectionId)
      .run();
    const delayed: { message: SyncMessage; delaySeconds?: number }[] = [];
    const collecting: SyncDeps = {
      ...deps,
      enqueue: async (message, options) => {
        delayed.push({ message, ...options });
      },
    };
    await consumeSyncMessage(collecting, { kind: "start", connectionId });
    expect(delayed).toEqual([{ message: { kind: "start", connectionId, waited: 1 }, delaySeconds: 5 }]);
    // The snapshot is due: the history run's next unit makes way for it.
    expect(await runHistoryUnit(deps, first.runId, 1)).toBe("yield");
    await env.DB.prepare(
      "UPDATE provider_connections SET lease_run_id = NULL, lease_until = NULL WHERE id = ?",
    )
      .bind(connectionId)
      .run();
    const routineSyncs = () =>
      env.DB.prepare(
        "SELECT routine_syncs AS n, last_sync_status AS status FROM provider_connections WHERE id = ?",
      )
        .bind(connectionId)
        .first<{ n: number; status: string }>();
    const before = await routineSyncs();
    await consumeSyncMessage(collecting, { kind: "start", connectionId, waited: 1 });
    // The scheduled run went well in one invocation: counted on the connection.
    expect(await routineSyncs()).toEqual({ n: (before?.n ?? 0) + 1, status: "success" });
    // History goes on after it.
    expect(await runHistoryUnit(deps, first.runId, 1)).toBe("continue");
  });

  it("fills 30 past days of a new connection in history units, reporting days, and resumes a killed unit", async () => {
    const owner = await registerOwner();
    const connectionId = await solisConnection(owner);
    const { deps, sent } = harness();
    const socket = await connect(owner);
    await within(socket.next());

    const snapshot = await syncConnection(deps, connectionId, "manual");
    expect(snapshot.status).toBe("success");
    // The page's three plants reached the socket as one frame.
    expect(
      socket.frames.some(
        (frame) =>
          frame.type === "batch" && frame.data.filter((m) => m.type === "solis_realtime_update").length === 3,
      ),
    ).toBe(true);
    // The snapshot run ended as before; a history run was started and its first unit queued.
    expect(sent).toHaveLength(1);
    const first = sent[0];
    if (first?.kind !== "history") throw new Error(`expected a history unit, got ${JSON.stringify(first)}`);
    expect(first.unit).toBe(0);
    const historyRunId = first.runId;
    expect(await runView(owner, historyRunId)).toMatchObject({ trigger: "history", status: "running" });

    // Unit 0 plans (three plants fit one planning step) and stores nothing yet.
    sent.length = 0;
    const beforePlan = await storedCounts(owner.orgId);
    expect(await runHistoryUnit(deps, historyRunId, 0)).toBe("continue");
    expect(await storedCounts(owner.orgId)).toEqual(beforePlan);
    const planned = await runView(owner, historyRunId);
    const daysTotal = planned.progress.historyDaysTotal ?? 0;
    // Three plants, their last 30 days (and today when daylight has passed without points).
    expect(daysTotal).toBeGreaterThanOrEqual(90);
    expect(daysTotal).toBeLessThanOrEqual(93);
    expect(planned.progress.historyDaysDone).toBe(0);
    const planRows = await env.DB.prepare("SELECT count(*) AS n FROM history_plan_plants WHERE run_id = ?")
      .bind(historyRunId)
      .first<{ n: number }>();
    expect(planRows?.n).toBe(3);

    // Unit 1 stores the first day; its redelivery is a duplicate and changes nothing.
    expect(await runHistoryUnit(deps, historyRunId, 1)).toBe("continue");
    const afterOne = await storedCounts(owner.orgId);
    expect(await runHistoryUnit(deps, historyRunId, 1)).toBe("stale");
    expect(await storedCounts(owner.orgId)).toEqual(afterOne);
    expect((await runView(owner, historyRunId)).progress.historyDaysDone).toBe(1);

    // The invocation was killed before unit 1's message went out: maintenance resends it.
    const resent: SyncMessage[] = [];
    await tendStalledRuns({
      env,
      now: Date.now() + RESUME_STALLED_AFTER_MS + 1000,
      enqueue: async (m) => {
        resent.push(m);
      },
    });
    expect(resent).toContainEqual({ kind: "history", runId: historyRunId, unit: 2 });
    sent.push({ kind: "history", runId: historyRunId, unit: 2 });
    await drain(deps, sent);

    const done = await runView(owner, historyRunId);
    expect(done.status).toBe("success");
    expect(done.progress).toMatchObject({ historyDaysDone: daysTotal, historyDaysTotal: daysTotal });
    const lease = await env.DB.prepare("SELECT lease_run_id FROM provider_connections WHERE id = ?")
      .bind(connectionId)
      .first<{ lease_run_id: string | null }>();
    expect(lease?.lease_run_id).toBeNull();
    // Each plant's row went once its last day was stored.
    const leftRows = await env.DB.prepare("SELECT count(*) AS n FROM history_plan_plants WHERE run_id = ?")
      .bind(historyRunId)
      .first<{ n: number }>();
    expect(leftRows?.n).toBe(0);

    // The organisation's socket heard the days go by.
    const historyProgress = socket.messages.filter(
      (m): m is Extract<LiveMessage, { type: "sync_progress" }> =>
        m.type === "sync_progress" && m.data.runId === historyRunId,
    );
    expect(historyProgress.length).toBeGreaterThan(1);
    expect(historyProgress.at(-1)?.data).toMatchObject({ status: "success", historyDaysDone: daysTotal });
    socket.ws.close();

    // The 30-day chart of a plant has past energy on the days before the connection existed.
    const systems = await env.DB.prepare("SELECT id FROM monitoring_systems WHERE org_id = ?")
      .bind(owner.orgId)
      .all<{ id: string }>();
    const systemId = systems.results[0]?.id ?? "";
    const [record] = await expectStatus<AnalyticsRecord[]>(
      await call(`/api/analytics?system=${systemId}&range=30d`, { token: owner.token }),
      200,
    );
    const today = new Date().toISOString().slice(0, 10);
    const pastEnergy = (record?.series?.energy ?? []).filter(
      (day) => day.date < today && (day.energyWh ?? 0) > 0,
    );
    expect(pastEnergy.length).toBeGreaterThanOrEqual(28);

    // Re-running: a finished unit is a duplicate, and the next sync finds no gap to fill.
    const filled = await storedCounts(owner.orgId);
    expect(await runHistoryUnit(deps, historyRunId, 1)).toBe("stale");
    const again = await syncConnection(deps, connectionId, "manual");
    expect(again.status).toBe("success");
    expect(sent).toEqual([]);
    const after = await storedCounts(owner.orgId);
    // The second snapshot adds at most today's live points; the history's days stay as they were.
    expect(after[0]?.fetched).toBe(filled[0]?.fetched);
    expect(after[0]?.daily).toBe(filled[0]?.daily);
  });

  it("makes way for the connection's due snapshot and comes back later; a member's sync goes ahead of it", async () => {
    const owner = await registerOwner();
    const connectionId = await solisConnection(owner);
    const { deps, sent } = harness();
    expect((await syncConnection(deps, connectionId, "manual")).status).toBe("success");
    const first = sent[0];
    if (first?.kind !== "history") throw new Error(`expected a history unit, got ${JSON.stringify(first)}`);
    const historyRunId = first.runId;
    const setConnection = (assignments: string, ...values: (number | string | null)[]) =>
      env.DB.prepare(`UPDATE provider_connections SET ${assignments} WHERE id = ?`)
        .bind(...values, connectionId)
        .run();

    // The plan is made; then the snapshot is due: the day unit stores nothing, leaves the lease
    // alone and is sent again later.
    expect(await runHistoryUnit(deps, historyRunId, 0)).toBe("continue");
    await setConnection("next_sync_at = ?", Date.now() - 1000);
    const before = await storedCounts(owner.orgId);
    const delayed: { message: SyncMessage; delaySeconds?: number }[] = [];
    const left = await driveRun(
      {
        ...deps,
        enqueue: async (message, options) => {
          delayed.push({ message, ...options });
        },
      },
      historyRunId,
      1,
      Date.now() + 60_000,
      "history",
    );
    expect(delayed).toEqual([
      { message: { kind: "history", runId: historyRunId, unit: 1 }, delaySeconds: YIELD_DELAY_SECONDS },
    ]);
    expect(left).toMatchObject({ status: "running", pagesDone: 0 });
    expect(await storedCounts(owner.orgId)).toEqual(before);

    // Once the snapshot has run, the next sync time has moved on and the unit goes ahead.
    expect((await syncConnection(deps, connectionId, "cron")).status).toBe("success");
    expect(await runHistoryUnit(deps, historyRunId, 1)).toBe("continue");

    // A member's sync while a history unit holds the connection: the snapshot is made due, and
    // the sync starts as soon as the unit lets go (here after a second).
    await setConnection(
      "next_sync_at = ?, lease_run_id = ?, lease_until = ?",
      Date.now() + 300_000,
      historyRunId,
      Date.now() + 60_000,
    );
    let dueWhileHeld: number | null = null;
    const released = new Promise<void>((resolve) =>
      setTimeout(async () => {
        const row = await env.DB.prepare("SELECT next_sync_at FROM provider_connections WHERE id = ?")
          .bind(connectionId)
          .first<{ next_sync_at: number }>();
        dueWhileHeld = row?.next_sync_at ?? null;
        await setConnection("lease_run_id = NULL, lease_until = NULL");
        resolve();
      }, 1000),
    );
    const synced = await expectStatus<{ status: string; sitesCount: number }>(
      await call("/api/providers/solis/sync", { method: "POST", token: owner.token }),
      200,
    );
    await released;
    expect(synced).toMatchObject({ status: "success", sitesCount: 3 });
    expect(dueWhileHeld).not.toBeNull();
    expect(dueWhileHeld ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(Date.now());
  });
});
