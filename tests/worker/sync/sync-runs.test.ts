import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import { simulatedPlants } from "../../../sandbox/simulation";
import { app } from "../../../worker/app";
import { dispatchDueSyncs } from "../../../worker/cron/dispatch-syncs";
import { runMaintenance } from "../../../worker/cron/maintenance";
import type { SyncMessage } from "../../../worker/env";
import { createDb } from "../../../worker/lib/db";
import { localBudget } from "../../../worker/providers/budget";
import { solisAdapter } from "../../../worker/providers/solis";
import { consumeSyncMessage } from "../../../worker/sync/queue-consumer";
import { driveRun, runUnit, startRun } from "../../../worker/sync/run";
import { RESUME_STALLED_AFTER_MS, SYNC_LEASE_MS } from "../../../worker/sync/schedule";
import { tendStalledRuns } from "../../../worker/sync/stalled-runs";
import { syncConnection } from "../../../worker/sync/sync-connection";
import type { SyncDeps } from "../../../worker/sync/types";
import { storeSql } from "../fleet-helpers";
import { BASE, call, expectStatus, registerOwner, type TestUser } from "../helpers";
import { connect, within } from "../socket-helpers";
import { storeConnection } from "./connection-fixtures";

/** The 500-station Solis account: 5 station pages, 13 inverter pages, a few alarm pages. */
const bench = sandboxAccounts.solis[1];
const benchPlants = simulatedPlants("solis", bench.keyId, bench.plants);

/**
 * Units run back to back in the test; the next message of a unit that hands off is collected here.
 * The emulator's per-second limit sees a second pass between calls (these tests never wait), so
 * only the faults a test injects refuse calls.
 */
function harness() {
  let limitClockMs = Date.now();
  const sandbox = createSandbox({ clock: () => (limitClockMs += 1000) });
  const sent: SyncMessage[] = [];
  const deps = (fetch: (request: Request) => Promise<Response> = (r) => Promise.resolve(sandbox.fetch(r))) =>
    ({
      db: createDb(env.DB),
      env,
      now: () => Date.now(),
      fetch,
      // Retries and spacing pass at once: these tests never wait in real time.
      sleep: async () => {},
      budget: localBudget(solisAdapter.callPlan(bench)),
      enqueue: async (message) => {
        sent.push(message);
      },
    }) satisfies SyncDeps;
  return { sandbox, sent, deps };
}

/** A Solis connection on the 500-station account, stored without a first run. */
const benchConnection = (owner: TestUser) =>
  storeConnection(owner.orgId, "solis", { keyId: bench.keyId, keySecret: bench.keySecret });

const runRow = (runId: string) =>
  env.DB.prepare(
    "SELECT status, unit_seq, pages_done, pages_total, systems_stored, error, cursor FROM sync_runs WHERE id = ?",
  )
    .bind(runId)
    .first<{
      status: string;
      unit_seq: number;
      pages_done: number;
      pages_total: number | null;
      systems_stored: number;
      error: string | null;
      cursor: string | null;
    }>();

/** Every stored plant of the organisation, with how many times each vendor id appears (D1 and store). */
async function storedPlants(orgId: string) {
  const d1 = await env.DB.prepare(
    "SELECT provider_system_id AS id, count(*) AS n FROM monitoring_systems WHERE org_id = ? GROUP BY provider_system_id",
  )
    .bind(orgId)
    .all<{ id: string; n: number }>();
  const store = await storeSql<{ id: string; n: number }>(
    orgId,
    "SELECT provider_system_id AS id, count(*) AS n FROM systems GROUP BY provider_system_id",
  );
  const inverters = await env.DB.prepare("SELECT count(*) AS n FROM inverters WHERE org_id = ?")
    .bind(orgId)
    .first<{ n: number }>();
  return { d1: d1.results, store, inverters: inverters?.n ?? 0 };
}

function expectEveryPlantOnce(stored: Awaited<ReturnType<typeof storedPlants>>) {
  const ids = benchPlants.map((plant) => plant.id).sort();
  expect(stored.d1.map((row) => row.id).sort()).toEqual(ids);
  expect(stored.d1.every((row) => row.n === 1)).toBe(true);
  expect(stored.store.map((row) => row.id).sort()).toEqual(ids);
  expect(stored.store.every((row) => row.n === 1)).toBe(true);
  expect(stored.inverters).toBe(benchPlants.reduce((sum, plant) => sum + plant.inverters.length, 0));
}

/** The connection's count of scheduled runs that went well without a row of their own. */
const routineSyncsOf = async (connectionId: string) =>
  (
    await env.DB.prepare("SELECT routine_syncs FROM provider_connections WHERE id = ?")
      .bind(connectionId)
      .first<{ routine_syncs: number }>()
  )?.routine_syncs;

/** Works through the messages units sent, and those they send in turn. */
async function drain(deps: SyncDeps, sent: SyncMessage[]) {
  for (let message = sent.shift(); message; message = sent.shift()) await consumeSyncMessage(deps, message);
}

const leaseOf = (connectionId: string) =>
  env.DB.prepare("SELECT lease_until, lease_run_id, last_sync_status FROM provider_connections WHERE id = ?")
    .bind(connectionId)
    .first<{ lease_until: number | null; lease_run_id: string | null; last_sync_status: string | null }>();

describe("sync runs of small units", { timeout: 120_000 }, () => {
  it("stores each unit's page as it goes and keeps the cursor, pages and systems on the run", async () => {
    const owner = await registerOwner();
    const connectionId = await benchConnection(owner);
    const { deps } = harness();
    const started = await startRun(deps(), connectionId, "manual");
    if (started.status !== "started") throw new Error("not started");
    expect(await runUnit(deps(), started.runId, 0)).toBe("continue");
    const afterOne = await runRow(started.runId);
    // The first unit reads the inverter list (the inverters run ahead of their stations) and asks
    // the alarm list its length; alarms come once every station is stored.
    expect(afterOne).toMatchObject({ status: "running", unit_seq: 1, pages_done: 1, systems_stored: 0 });
    expect((await leaseOf(connectionId))?.lease_run_id).toBe(started.runId);
    // Once the inverters read name a page's worth of stations (100 stations, ~2.6 inverters each:
    // the third inverter page), the next unit reads the first station page beside the fourth.
    let unit = 1;
    while (unit < 4) expect(await runUnit(deps(), started.runId, unit++)).toBe("continue");
    const afterFour = await runRow(started.runId);
    expect(afterFour).toMatchObject({ status: "running", unit_seq: 4, pages_done: 5 });
    expect(afterFour?.pages_total).toBeGreaterThan(18);
    expect(afterFour?.systems_stored).toBeGreaterThan(0);
    const stored = await storedPlants(owner.orgId);
    expect(stored.d1).toHaveLength(afterFour?.systems_stored ?? -1);
    // Every station stored so far arrived complete: its inverters were read before it.
    const storedIds = new Set(stored.d1.map((row) => row.id));
    const storedPlantsInverters = benchPlants
      .filter((plant) => storedIds.has(plant.id))
      .reduce((sum, plant) => sum + plant.inverters.length, 0);
    expect(stored.inverters).toBe(storedPlantsInverters);
  });

  it("resumes a run killed after page k and ends with every plant stored once", async () => {
    const owner = await registerOwner();
    const connectionId = await benchConnection(owner);
    const { deps, sent } = harness();
    const started = await startRun(deps(), connectionId, "manual");
    if (started.status !== "started") throw new Error("not started");
    const k = 4;
    for (let unit = 0; unit < k; unit++) expect(await runUnit(deps(), started.runId, unit)).toBe("continue");

    // Unit k dies mid-page: its vendor call never comes back and nothing after it runs.
    let release: (error: Error) => void = () => {};
    const hanging = new Promise<Response>((_, reject) => {
      release = reject;
    });
    const abandoned = runUnit(
      deps(() => hanging),
      started.runId,
      k,
    );
    // The message of unit k is delivered again: it does the page and carries on to the end.
    await consumeSyncMessage(deps(), { kind: "snapshot", runId: started.runId, unit: k });
    await drain(deps(), sent);
    expect(await runRow(started.runId)).toMatchObject({ status: "success", cursor: null });
    // The dead invocation's call finally fails: the finished run stays as it is.
    release(new Error("invocation killed"));
    await abandoned;
    expect((await runRow(started.runId))?.status).toBe("success");
    // A late duplicate of an early unit changes nothing.
    await consumeSyncMessage(deps(), { kind: "snapshot", runId: started.runId, unit: 1 });
    expectEveryPlantOnce(await storedPlants(owner.orgId));
    expect(await leaseOf(connectionId)).toMatchObject({
      lease_until: null,
      lease_run_id: null,
      last_sync_status: "success",
    });
  });

  it("gives a scheduled run its row when its next unit goes to the queue, and resumes it from there", async () => {
    const owner = await registerOwner();
    const connectionId = await benchConnection(owner);
    await env.DB.prepare("UPDATE provider_connections SET next_sync_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, connectionId)
      .run();
    const { deps, sent } = harness();
    // Each reading of the clock is a minute on: the invocation's time is up after the first unit.
    let clock = Date.now();
    await consumeSyncMessage({ ...deps(), now: () => (clock += 61_000) }, { kind: "start", connectionId });
    const handedOn = sent.shift();
    if (handedOn?.kind !== "snapshot")
      throw new Error(`expected the next unit, got ${JSON.stringify(handedOn)}`);
    expect(handedOn.unit).toBe(1);
    // The row holds the run as the first unit left it: the cursor and progress the next unit needs.
    const row = await runRow(handedOn.runId);
    expect(row).toMatchObject({ status: "running", unit_seq: 1, pages_done: 1 });
    expect(row?.cursor).not.toBeNull();
    expect((await leaseOf(connectionId))?.lease_run_id).toBe(handedOn.runId);
    await consumeSyncMessage(deps(), handedOn);
    while (sent.length > 0) {
      const next = sent.shift();
      if (next?.kind === "snapshot") await consumeSyncMessage(deps(), next);
    }
    const ended = await env.DB.prepare("SELECT trigger, status, invocations FROM sync_runs WHERE id = ?")
      .bind(handedOn.runId)
      .first<{ trigger: string; status: string; invocations: number }>();
    expect(ended).toMatchObject({ trigger: "cron", status: "success" });
    expect(ended?.invocations).toBeGreaterThanOrEqual(2);
    expectEveryPlantOnce(await storedPlants(owner.orgId));
    // A run with a row is not counted as a routine one.
    expect(await routineSyncsOf(connectionId)).toBe(0);
  });

  it("gives a long scheduled run its row while it goes, so a member's sync can follow it", async () => {
    const owner = await registerOwner();
    const connectionId = await benchConnection(owner);
    const { deps } = harness();
    // Each reading of the clock is 4 s on: the run passes HELD_RUN_ROW_AFTER_MS within a few units.
    let clock = Date.now();
    const started = await startRun({ ...deps(), now: () => (clock += 4_000) }, connectionId, "cron");
    if (started.status !== "started" || !started.held) throw new Error("not held");
    // Driven to its end in this invocation (no unit handed on, nothing failed): its row comes from
    // its length alone.
    const run = await driveRun(
      { ...deps(), now: () => (clock += 4_000) },
      started.runId,
      0,
      Number.POSITIVE_INFINITY,
      "snapshot",
      started.held,
    );
    expect(run?.status).toBe("success");
    const row = await env.DB.prepare("SELECT trigger, status, unit_seq FROM sync_runs WHERE id = ?")
      .bind(started.runId)
      .first<{ trigger: string; status: string; unit_seq: number }>();
    expect(row).toMatchObject({ trigger: "cron", status: "success" });
    expect(row?.unit_seq).toBeGreaterThan(3);
    expect(await routineSyncsOf(connectionId)).toBe(0);
  });

  it("keeps a scheduled run that fails as a row: failures are what the history is read for", async () => {
    const owner = await registerOwner();
    const connectionId = await benchConnection(owner);
    const { deps, sandbox } = harness();
    sandbox.faults.rateLimitNext("solis", 100);
    const result = await syncConnection(deps(), connectionId, "cron");
    expect(result.status).toBe("failed");
    const runs = await env.DB.prepare("SELECT trigger, status, error FROM sync_runs WHERE connection_id = ?")
      .bind(connectionId)
      .all<{ trigger: string; status: string; error: string }>();
    expect(runs.results).toEqual([
      { trigger: "cron", status: "failed", error: expect.stringMatching(/SolisCloud is limiting requests/) },
    ]);
    expect(await leaseOf(connectionId)).toMatchObject({ lease_run_id: null, last_sync_status: "failed" });
  });

  it("keeps the run's cursor small and stores every vendor alarm with its station", async () => {
    const owner = await registerOwner();
    const connectionId = await benchConnection(owner);
    const { deps } = harness();
    const started = await startRun(deps(), connectionId, "manual");
    if (started.status !== "started") throw new Error("not started");
    let largestCursor = 0;
    for (let unit = 0; ; unit++) {
      const outcome = await runUnit(deps(), started.runId, unit);
      largestCursor = Math.max(largestCursor, (await runRow(started.runId))?.cursor?.length ?? 0);
      if (outcome !== "continue") break;
    }
    expect((await runRow(started.runId))?.status).toBe("success");
    // The stations waiting for their inverters and the inverters ahead of their station (about a
    // page of stations' worth), never the alarms: nothing in it grows with the fleet.
    expect(largestCursor).toBeGreaterThan(0);
    expect(largestCursor).toBeLessThan(100_000);
    const alarms = await env.DB.prepare(
      "SELECT count(*) AS n, count(system_id) AS attached FROM alerts WHERE org_id = ? AND provider = 'solis'",
    )
      .bind(owner.orgId)
      .first<{ n: number; attached: number }>();
    expect(alarms?.n).toBeGreaterThan(0);
    expect(alarms?.attached).toBe(alarms?.n);
  });

  it("resumes a run whose next message was lost, from maintenance", async () => {
    const owner = await registerOwner();
    const connectionId = await benchConnection(owner);
    const { deps } = harness();
    const started = await startRun(deps(), connectionId, "manual");
    if (started.status !== "started") throw new Error("not started");
    for (let unit = 0; unit < 3; unit++) await runUnit(deps(), started.runId, unit);
    // The invocation died after committing unit 2: no message carries unit 3.
    const resent: SyncMessage[] = [];
    const early = await tendStalledRuns({
      env,
      now: Date.now(),
      enqueue: async (m) => {
        resent.push(m);
      },
    });
    expect(early.resumed).toBe(0);
    await tendStalledRuns({
      env,
      now: Date.now() + RESUME_STALLED_AFTER_MS + 1000,
      enqueue: async (m) => {
        resent.push(m);
      },
    });
    expect(resent).toContainEqual({ kind: "snapshot", runId: started.runId, unit: 3 });
    const message = resent.find((m) => m.kind === "snapshot" && m.runId === started.runId);
    const { deps: resumeDeps, sent } = harness();
    if (message) await consumeSyncMessage(resumeDeps(), message);
    await drain(resumeDeps(), sent);
    expect((await runRow(started.runId))?.status).toBe("success");
    expectEveryPlantOnce(await storedPlants(owner.orgId));
  });

  it("never runs two runs on one connection: a second start, the cron and the user are told one is going", async () => {
    const owner = await registerOwner();
    const connectionId = await benchConnection(owner);
    const { deps } = harness();
    const [a, b] = await Promise.all([
      startRun(deps(), connectionId, "manual"),
      startRun(deps(), connectionId, "save"),
    ]);
    expect([a.status, b.status].sort()).toEqual(["busy", "started"]);
    const runId = a.status === "started" ? a.runId : b.status === "started" ? b.runId : "";
    await runUnit(deps(), runId, 0);
    // The scheduler's start message while the run goes: no second run.
    await env.DB.prepare("UPDATE provider_connections SET next_sync_at = 1 WHERE id = ?")
      .bind(connectionId)
      .run();
    const queued: string[] = [];
    await dispatchDueSyncs({
      env,
      now: Date.now(),
      sendBatch: async (messages) => {
        for (const m of messages) if (m.body.kind === "start") queued.push(m.body.connectionId);
      },
    });
    expect(queued).not.toContain(connectionId);
    await consumeSyncMessage(deps(), { kind: "start", connectionId });
    // A member's sync while the run goes follows that run instead of starting another.
    const body = await expectStatus<{ runId: string; status: string }>(
      await call("/api/providers/solis/sync", { method: "POST", token: owner.token }),
      202,
    );
    expect(body).toMatchObject({ runId, status: "running" });
    const runs = await env.DB.prepare("SELECT id, status FROM sync_runs WHERE connection_id = ?")
      .bind(connectionId)
      .all<{ id: string; status: string }>();
    expect(runs.results).toEqual([{ id: runId, status: "running" }]);
  });

  it("retries a rate-limited page inside the run, and a single refused call never fails it", async () => {
    const owner = await registerOwner();
    const connectionId = await benchConnection(owner);
    const { deps, sandbox } = harness();
    // Every list's next call is refused once with SolisCloud's per-second R0000.
    sandbox.faults.rateLimitNext("solis", 3);
    const result = await syncConnection(deps(), connectionId, "cron");
    expect(result.status, JSON.stringify(result)).toBe("success");
    expect(sandbox.faults.refused.get("solis")).toBe(3);
    expectEveryPlantOnce(await storedPlants(owner.orgId));
  });

  it("gives up a page that keeps failing, fails the run and keeps what earlier pages stored", async () => {
    const owner = await registerOwner();
    const connectionId = await benchConnection(owner);
    const { deps, sandbox } = harness();
    const started = await startRun(deps(), connectionId, "manual");
    if (started.status !== "started") throw new Error("not started");
    // Four units: the fourth reads the first station page and stores its stations.
    for (let unit = 0; unit < 4; unit++) await runUnit(deps(), started.runId, unit);
    const before = await storedPlants(owner.orgId);
    expect(before.d1.length).toBeGreaterThan(0);
    sandbox.faults.rateLimitNext("solis", 100);
    expect(await runUnit(deps(), started.runId, 4)).toBe("finished");
    const run = await runRow(started.runId);
    expect(run?.status).toBe("failed");
    expect(run?.error).toMatch(/SolisCloud is limiting requests/);
    // 1 call and 4 retries per list, three lists side by side.
    expect(sandbox.faults.refused.get("solis")).toBeGreaterThanOrEqual(5);
    expect((await storedPlants(owner.orgId)).d1).toEqual(before.d1);
    expect(await leaseOf(connectionId)).toMatchObject({ lease_run_id: null, last_sync_status: "failed" });
  });

  it("closes a run that stopped moving once its lease is over, and frees the connection", async () => {
    const owner = await registerOwner();
    const connectionId = await benchConnection(owner);
    const { deps } = harness();
    const started = await startRun(deps(), connectionId, "manual");
    if (started.status !== "started") throw new Error("not started");
    await runUnit(deps(), started.runId, 0);
    const result = await runMaintenance({ env, now: Date.now() + SYNC_LEASE_MS + 60_000 });
    expect(result.syncRunsClosed).toBeGreaterThanOrEqual(1);
    const run = await runRow(started.runId);
    expect(run?.status).toBe("failed");
    expect(run?.error).toMatch(/stopped moving/);
    expect(await leaseOf(connectionId)).toMatchObject({ lease_run_id: null, last_sync_status: "failed" });
    // Its late unit changes nothing.
    expect(await runUnit(deps(), started.runId, 1)).toBe("stale");
    expect((await runRow(started.runId))?.status).toBe("failed");
  });
});

describe("user-started syncs", { timeout: 120_000 }, () => {
  /** The app with a shortened answer time, as the route reads it from the environment. */
  const shortAnswer = (path: string, token: string, method = "GET", ctx = createExecutionContext()) =>
    app.request(
      `${BASE}${path}`,
      { method, headers: { Authorization: `Bearer ${token}` } },
      { ...env, SYNC_ANSWER_WITHIN_MS: "0" },
      ctx,
    );

  it("answers 202 with the run's id and progress when the run outlasts the answer time; GET reads it", async () => {
    const owner = await registerOwner();
    await benchConnection(owner);
    const ctx = createExecutionContext();
    const res = await shortAnswer("/api/providers/solis/sync", owner.token, "POST", ctx);
    const body = await expectStatus<{
      runId: string;
      status: string;
      progress: { runId: string; pagesDone: number; pagesTotal: number | null; systemsStored: number };
    }>(res, 202);
    expect(body.status).toBe("running");
    expect(body.progress.runId).toBe(body.runId);
    // The answer does not wait for the unit in flight: it finishes after the answer, and GET shows it.
    await waitOnExecutionContext(ctx);
    const run = await expectStatus<{
      id: string;
      provider: string;
      progress: { runId: string; pagesDone: number; pagesTotal: number | null };
    }>(await call(`/api/sync-runs/${body.runId}`, { token: owner.token }), 200);
    expect(run).toMatchObject({ id: body.runId, provider: "solis", progress: { runId: body.runId } });
    // The first unit read the inverter list's first page; the total stays unknown until the
    // station list's first page names its length.
    expect(run.progress.pagesDone).toBe(1);
    expect(run.progress.pagesTotal).toBeNull();
    const stranger = await registerOwner();
    await expectStatus(await call(`/api/sync-runs/${body.runId}`, { token: stranger.token }), 404);
    await expectStatus(await call(`/api/sync-runs/${body.runId}`), 401);
  });

  it("answers the outcome and the sites and inverters counted when the run ends within the answer time", async () => {
    const owner = await registerOwner();
    const solis = sandboxAccounts.solis[0];
    await expectStatus(
      await call("/api/credentials", {
        method: "POST",
        token: owner.token,
        body: { provider: "solis", credentials: { keyId: solis.keyId, keySecret: solis.keySecret } },
      }),
      201,
    );
    const body = await expectStatus<{ status: string; message: string; sitesCount: number }>(
      await call("/api/providers/solis/sync", { method: "POST", token: owner.token }),
      200,
    );
    expect(body).toMatchObject({ status: "success", sitesCount: 3 });
    expect(body.message).toMatch(/^Successfully synced 3 sites and \d+ inverters from SolisCloud$/);
  });

  it("sends sync_progress to the organisation's own sockets only", async () => {
    const owner = await registerOwner();
    const stranger = await registerOwner();
    const mine = await connect(owner);
    const theirs = await connect(stranger);
    await within(mine.next());
    await within(theirs.next());
    const connectionId = await benchConnection(owner);
    const { deps } = harness();
    const started = await startRun(deps(), connectionId, "manual");
    if (started.status !== "started") throw new Error("not started");
    // The fourth unit reads the first station page (the inverters run ahead) and stores stations.
    for (let unit = 0; unit < 4; unit++) await runUnit(deps(), started.runId, unit);
    let progress = await within(mine.next());
    while (progress.type !== "sync_progress" || progress.data.systemsStored === 0)
      progress = await within(mine.next());
    expect(progress.data).toMatchObject({
      runId: started.runId,
      provider: "solis",
      status: "running",
      pagesDone: 5,
    });
    expect(progress.data.systemsStored).toBeGreaterThan(0);
    expect(theirs.messages.map((m) => m.type)).toEqual(["connected"]);
    mine.ws.close(1000, "done");
    theirs.ws.close(1000, "done");
  });
});
