import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import { dispatchDueSyncs } from "../../../worker/cron/dispatch-syncs";
import type { SyncMessage } from "../../../worker/env";
import worker from "../../../worker/index";
import { sealCredentials } from "../../../worker/lib/connection-secrets";
import { loadKeyring } from "../../../worker/lib/credentials-keyring";
import { createDb } from "../../../worker/lib/db";
import { localBudget } from "../../../worker/providers/budget";
import { solisAdapter } from "../../../worker/providers/solis";
import { SYNC_INTERVAL_MS, tickWindow } from "../../../worker/sync/schedule";
import { syncConnection } from "../../../worker/sync/sync-connection";
import { storedPointCount, storeLiveRows } from "../fleet-helpers";
import { call, expectStatus, registerOwner, type TestUser } from "../helpers";

const solis = sandboxAccounts.solis[0];
/**
 * A sandbox of each test's own: SolisCloud's per-second limit is counted in real time, and these
 * tests skip the waits, so one test's calls in the same second as the next one's were refused
 * there (a concurrent-sync test failed once as the second test in a row to call the vendor).
 */
let sandbox = createSandbox();
beforeEach(() => {
  sandbox = createSandbox();
});

/** The in-test sandbox, optionally answering every call with an injected fault. */
function sandboxFetch(fault?: string) {
  return (request: Request) => {
    const headers = new Headers(request.headers);
    if (fault) headers.set("X-Sandbox-Fault", fault);
    const forwarded = new Request(request, { headers });
    return new Promise<Response>((resolve, reject) => {
      request.signal.addEventListener("abort", () => reject(request.signal.reason));
      Promise.resolve(sandbox.fetch(forwarded)).then(resolve, reject);
    });
  };
}

const deps = (fault?: string, callTimeoutMs?: number) => ({
  db: createDb(env.DB),
  env,
  now: () => Date.now(),
  fetch: sandboxFetch(fault),
  callTimeoutMs,
  // Retries of a failing vendor pass at once: these tests never wait in real time. The budget is
  // the adapter's own, in memory, so this fake time never delays the credential's shared bucket.
  sleep: async (_ms: number) => {},
  budget: localBudget(solisAdapter.callPlan(solis)),
});

async function connectSolis(owner: TestUser, keySecret: string = solis.keySecret) {
  await expectStatus(
    await call("/api/credentials", {
      method: "POST",
      token: owner.token,
      body: { provider: "solis", credentials: { keyId: solis.keyId, keySecret } },
    }),
    201,
  );
  const row = await env.DB.prepare(
    "SELECT id FROM provider_connections WHERE org_id = ? AND provider = 'solis'",
  )
    .bind(owner.orgId)
    .first<{ id: string }>();
  if (!row) throw new Error("connection not stored");
  return row.id;
}

/** Everything a sync writes for an organisation (D1 and its fleet store), to compare before and after a failing sync. */
async function storedData(orgId: string) {
  const systems = await env.DB.prepare(
    "SELECT provider_system_id, name, state FROM monitoring_systems WHERE org_id = ? ORDER BY provider_system_id",
  )
    .bind(orgId)
    .all();
  const inverters = await env.DB.prepare(
    "SELECT provider_inverter_id, state FROM inverters WHERE org_id = ? ORDER BY provider_inverter_id",
  )
    .bind(orgId)
    .all();
  const { systems: live, inverters: inverterLive } = await storeLiveRows(orgId);
  return {
    systems: systems.results,
    inverters: inverters.results,
    live,
    inverterLive,
    readings: await storedPointCount(orgId),
  };
}

const connectionRow = (connectionId: string) =>
  env.DB.prepare(
    `SELECT status, last_sync_status, last_sync_at, last_error, consecutive_failures, next_sync_at,
            lease_until, lease_run_id, routine_syncs
     FROM provider_connections WHERE id = ?`,
  )
    .bind(connectionId)
    .first<{
      status: string;
      last_sync_status: string;
      last_sync_at: number | null;
      last_error: string | null;
      consecutive_failures: number;
      next_sync_at: number | null;
      lease_until: number | null;
      lease_run_id: string | null;
      routine_syncs: number;
    }>();

describe("sync engine", () => {
  it("is idempotent: syncing again never duplicates systems, inverters or readings", async () => {
    const owner = await registerOwner();
    const connectionId = await connectSolis(owner);
    const first = await storedData(owner.orgId);
    expect(first.systems).toHaveLength(3);
    const again = await syncConnection(deps(), connectionId, "manual");
    expect(again.status).toBe("success");
    const second = await storedData(owner.orgId);
    expect(second.systems).toHaveLength(3);
    expect(second.inverters).toHaveLength(first.inverters.length);
    // Same vendor data time: the reading is already stored, so none is added.
    expect(second.readings).toBe(first.readings);
  });

  it("runs one sync at a time per connection: a concurrent start is told the connection is busy", async () => {
    const owner = await registerOwner();
    const connectionId = await connectSolis(owner);
    const results = await Promise.all([
      syncConnection(deps(), connectionId, "manual"),
      syncConnection(deps(), connectionId, "cron"),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["busy", "success"]);
    expect((await storedData(owner.orgId)).systems).toHaveLength(3);
    expect((await connectionRow(connectionId))?.lease_until).toBeNull();
  });

  it.each([
    ["500", "unavailable"],
    ["429", "rate_limited"],
    ["malformed", "malformed"],
    ["partial", "malformed"],
  ])(
    "keeps stored data when the vendor answers %s, records a %s failure and backs off",
    async (fault, kind) => {
      const owner = await registerOwner();
      const connectionId = await connectSolis(owner);
      const before = await storedData(owner.orgId);
      const startedAt = Date.now();
      const result = await syncConnection(deps(fault), connectionId, "cron");
      expect(result).toMatchObject({ status: "failed", errorKind: kind });
      expect(await storedData(owner.orgId)).toEqual(before);
      const row = await connectionRow(connectionId);
      expect(row).toMatchObject({ status: "active", last_sync_status: "failed", consecutive_failures: 1 });
      expect(row?.last_error).toMatch(/SolisCloud/);
      expect(row?.next_sync_at).toBeGreaterThanOrEqual(startedAt + SYNC_INTERVAL_MS);
    },
  );

  it("gives up a call after the time limit and keeps the data", async () => {
    const owner = await registerOwner();
    const connectionId = await connectSolis(owner);
    const before = await storedData(owner.orgId);
    const result = await syncConnection(deps("timeout", 200), connectionId, "cron");
    expect(result).toMatchObject({ status: "failed", errorKind: "timeout" });
    expect(await storedData(owner.orgId)).toEqual(before);
  });

  it("backs off exponentially, up to an hour", async () => {
    const owner = await registerOwner();
    const connectionId = await connectSolis(owner);
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const at = Date.now();
      await syncConnection(deps("500"), connectionId, "cron");
      const row = await connectionRow(connectionId);
      delays.push(Math.round(((row?.next_sync_at ?? 0) - at) / 60_000));
    }
    expect(delays).toEqual([5, 10, 20, 40, 60, 60]);
  });

  it("stops retrying rejected credentials and marks the connection as needing attention", async () => {
    const owner = await registerOwner();
    const connectionId = await connectSolis(owner, "not-the-secret");
    const row = await connectionRow(connectionId);
    expect(row).toMatchObject({ status: "needs_attention", last_sync_status: "failed", next_sync_at: null });
    const listed = await expectStatus<{ status: string; lastError: string }[]>(
      await call("/api/credentials", { token: owner.token }),
      200,
    );
    expect(listed[0]?.status).toBe("needs_attention");
    expect(listed[0]?.lastError).toMatch(/rejected the credentials/);
    const dispatched = await dispatchDueSyncs({ env, now: Date.now() + 24 * 3600_000 });
    const queuedIds = await env.DB.prepare(
      "SELECT id FROM provider_connections WHERE id = ? AND next_sync_at IS NULL",
    )
      .bind(connectionId)
      .all();
    expect(queuedIds.results).toHaveLength(1);
    expect(dispatched.queued).toBeGreaterThanOrEqual(0);
    // Saving the right credentials brings it back at once.
    await connectSolis(owner);
    expect(await connectionRow(connectionId)).toMatchObject({
      status: "active",
      last_sync_status: "success",
    });
  });

  it("syncs at once when the user asks, whatever the backoff", async () => {
    const owner = await registerOwner();
    const connectionId = await connectSolis(owner);
    await syncConnection(deps("500"), connectionId, "cron");
    expect((await connectionRow(connectionId))?.next_sync_at).toBeGreaterThan(Date.now());
    const synced = await expectStatus<{ sitesCount: number }>(
      await call("/api/providers/solis/sync", { method: "POST", token: owner.token }),
      200,
    );
    expect(synced.sitesCount).toBe(3);
    expect(await connectionRow(connectionId)).toMatchObject({
      consecutive_failures: 0,
      last_sync_status: "success",
    });
  });

  it("answers a manual sync's unexpected failure with 502 and a readable error", async () => {
    const owner = await registerOwner();
    const connectionId = await connectSolis(owner);
    // Credentials that decrypt but no longer fit the provider's schema: an internal fault, not the user's.
    const sealed = await sealCredentials(await loadKeyring(env), owner.orgId, connectionId, {
      unexpected: true,
    });
    await env.DB.prepare(
      "UPDATE provider_connections SET credentials_ciphertext = ?, credentials_iv = ?, credentials_key_id = ? WHERE id = ?",
    )
      .bind(sealed.credentialsCiphertext, sealed.credentialsIv, sealed.credentialsKeyId, connectionId)
      .run();
    const body = await expectStatus<{ error: string }>(
      await call("/api/providers/solis/sync", { method: "POST", token: owner.token }),
      502,
    );
    expect(body.error).toMatch(/failed unexpectedly/);
  });

  it("answers a manual sync of credentials that no longer decrypt with 400 and 'needs attention'", async () => {
    const owner = await registerOwner();
    await connectSolis(owner);
    await env.DB.prepare(
      "UPDATE provider_connections SET credentials_iv = 'AAAAAAAAAAAAAAAA' WHERE org_id = ?",
    )
      .bind(owner.orgId)
      .run();
    const body = await expectStatus<{ error: string; details: { status: string } }>(
      await call("/api/providers/solis/sync", { method: "POST", token: owner.token }),
      400,
    );
    expect(body.error).toBe(
      "The stored credentials cannot be read: the encryption key changed, or they belong to another connection. Save the SolisCloud credentials again.",
    );
    expect(body.details).toEqual({
      provider: "solis",
      kind: "unreadable_credentials",
      status: "needs_attention",
    });
  });
});

describe("scheduled syncs", () => {
  it("queues each due connection once, the queue consumer syncs it, and a steady cycle keeps no run row", async () => {
    const owner = await registerOwner();
    const connectionId = await connectSolis(owner);
    // Due a second ago (within this tick's window), whatever cadence its first run chose (30
    // minutes while the sun is down at every plant).
    const now = Date.now();
    const dueAt = Math.max(tickWindow(now).from, now - 1000);
    await env.DB.prepare("UPDATE provider_connections SET next_sync_at = ? WHERE id = ?")
      .bind(dueAt, connectionId)
      .run();
    const first = await dispatchDueSyncs({ env, now });
    expect(first.queued).toBeGreaterThanOrEqual(1);
    // Read, not claimed: the dispatch wrote nothing, and the next tick passes it over while its
    // start waits in the queue.
    expect((await connectionRow(connectionId))?.next_sync_at).toBe(dueAt);
    const second = await dispatchDueSyncs({
      env,
      now: now + SYNC_INTERVAL_MS,
      sendBatch: async (messages) => {
        expect(messages.map((m) => m.body)).not.toContainEqual({ kind: "start", connectionId });
      },
    });
    expect(second.queued).toBeGreaterThanOrEqual(0);

    const deliver = async (id: string) => {
      const batch = createMessageBatch<SyncMessage>("sunfleet-sync", [
        { id, timestamp: new Date(), attempts: 1, body: { kind: "start", connectionId } },
      ]);
      const ctx = createExecutionContext();
      await worker.queue(batch, env, ctx);
      return getQueueResult(batch, ctx);
    };
    expect((await deliver("m1")).explicitAcks).toEqual(["m1"]);
    const runs = await env.DB.prepare(
      "SELECT trigger, status FROM sync_runs WHERE connection_id = ? ORDER BY started_at",
    )
      .bind(connectionId)
      .all<{ trigger: string; status: string }>();
    // The scheduled run went well in one invocation: counted on the connection, no row of its own.
    expect(runs.results).toEqual([{ trigger: "save", status: "success" }]);
    const synced = await connectionRow(connectionId);
    expect(synced).toMatchObject({ routine_syncs: 1, last_sync_status: "success", lease_run_id: null });
    expect(synced?.next_sync_at).toBeGreaterThan(now);

    // The same start delivered again finds its cycle taken: nothing runs.
    expect((await deliver("m2")).explicitAcks).toEqual(["m2"]);
    expect(await connectionRow(connectionId)).toMatchObject({
      routine_syncs: 1,
      last_sync_at: synced?.last_sync_at,
    });
  });

  it("sends its own next start when its run ends after the tick that dispatched that time", async () => {
    const owner = await registerOwner();
    const connectionId = await connectSolis(owner);
    // 11:24:50 in Amsterdam on a June morning (a 5-minute cadence): the run starts in the minute
    // before the 11:25 tick and, each reading of its clock 5 s on, ends after that tick, which has
    // dispatched the window its next time (11:29) falls in.
    const tick = Date.UTC(2024, 5, 20, 9, 25);
    let clock = tick - 10_000;
    const now = () => (clock += 5_000);
    const sent: { message: SyncMessage; delaySeconds?: number }[] = [];
    const result = await syncConnection(
      {
        ...deps(),
        now,
        fetch: async (r: Request) => createSandbox({ now: () => clock }).fetch(r),
        enqueue: async (message, options) => void sent.push({ message, ...options }),
      },
      connectionId,
      "cron",
    );
    expect(result.status).toBe("success");
    const next = (await connectionRow(connectionId))?.next_sync_at ?? 0;
    expect(next).toBe(tick + 4 * 60_000);
    const starts = sent.filter((s) => s.message.kind === "start");
    expect(starts).toHaveLength(1);
    expect(starts[0]?.message).toEqual({ kind: "start", connectionId });
    // Delayed to its time, then its spread.
    expect(clock + (starts[0]?.delaySeconds ?? 0) * 1000).toBeGreaterThanOrEqual(next - 5_000);
    expect(starts[0]?.delaySeconds ?? 0).toBeLessThan((next - tick) / 1000 + 50);
  });

  it("is due again on the tick one cadence after the tick its run started on", async () => {
    const owner = await registerOwner();
    const connectionId = await connectSolis(owner);
    // A scheduled run starts a few seconds after its tick and stores later still.
    const tick = Math.ceil(Date.now() / SYNC_INTERVAL_MS) * SYNC_INTERVAL_MS;
    let clock = tick + 3_000;
    const result = await syncConnection({ ...deps(), now: () => (clock += 1_000) }, connectionId, "cron");
    expect(result.status).toBe("success");
    const next = (await connectionRow(connectionId))?.next_sync_at ?? 0;
    // Day or night cadence, the next time falls on a tick, so the cron finds the connection due there.
    expect(next).toBeGreaterThan(tick);
    expect((next - tick) % SYNC_INTERVAL_MS).toBe(0);
    expect((await dispatchDueSyncs({ env, now: next })).queued).toBeGreaterThanOrEqual(1);
  });
});
