import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { providerIds } from "../../../schema/api/providers";
import { dispatchDueSyncs } from "../../../worker/cron/dispatch-syncs";
import type { Env, SyncMessage } from "../../../worker/env";
import { nextCycleAt } from "../../../worker/sync/run";
import { START_SPREAD_SECONDS, SYNC_INTERVAL_MS } from "../../../worker/sync/schedule";
import { meteredD1 } from "../d1-meter";

const FLEET_CONNECTIONS = 10_000;
/** The cron's ticks fall on whole five minutes. */
const tickAt = (index: number) => (Math.ceil(Date.now() / SYNC_INTERVAL_MS) + index) * SYNC_INTERVAL_MS;

interface SentStart {
  connectionId: string;
  delaySeconds: number;
}

/**
 * The worker's env with SYNC_QUEUE collecting what is sent and DB counting the statements and
 * round trips it is given, so a test sees every message and every D1 call of one dispatch.
 */
function recordingEnv() {
  const sent: SentStart[] = [];
  const counts = {
    queueCalls: 0,
    largestCallMessages: 0,
    largestCallBytes: 0,
  };
  const queue: Queue<SyncMessage> = {
    metrics: async () => ({ backlogCount: sent.length, backlogBytes: 0 }),
    send: async (body, options) => {
      counts.queueCalls++;
      if (body.kind === "start")
        sent.push({ connectionId: body.connectionId, delaySeconds: options?.delaySeconds ?? 0 });
      return { metadata: { metrics: { backlogCount: sent.length, backlogBytes: 0 } } };
    },
    sendBatch: async (messages, options) => {
      const batch = [...messages];
      counts.queueCalls++;
      counts.largestCallMessages = Math.max(counts.largestCallMessages, batch.length);
      counts.largestCallBytes = Math.max(counts.largestCallBytes, JSON.stringify(batch).length);
      for (const m of batch) {
        if (m.body.kind === "start")
          sent.push({
            connectionId: m.body.connectionId,
            delaySeconds: m.delaySeconds ?? options?.delaySeconds ?? 0,
          });
      }
      return { metadata: { metrics: { backlogCount: sent.length, backlogBytes: 0 } } };
    },
  };
  const { db, meter } = meteredD1();
  const recorded: Env = { ...env, DB: db, SYNC_QUEUE: queue };
  return { env: recorded, sent, counts, meter };
}

/** Active connections with no run going, inserted straight into D1 (the dispatch reads nothing else). */
async function insertConnections(count: number, nextSyncAt: (index: number) => number): Promise<string[]> {
  const orgCount = Math.ceil(count / providerIds.length);
  const runId = crypto.randomUUID().slice(0, 8);
  const orgs = Array.from({ length: orgCount }, (_, i) => ({
    id: `dispatch-${runId}-${i}`,
    name: `Fleet ${i}`,
  }));
  const connections = Array.from({ length: count }, (_, i) => ({
    id: crypto.randomUUID(),
    orgId: orgs[Math.floor(i / providerIds.length)]?.id,
    provider: providerIds[i % providerIds.length],
    nextSyncAt: nextSyncAt(i),
  }));
  const rowsPerStatement = 1_000;
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < orgs.length; i += rowsPerStatement) {
    statements.push(
      env.DB.prepare(
        `INSERT INTO organizations (id, name, created_at)
         SELECT value ->> 'id', value ->> 'name', 0 FROM json_each(?)`,
      ).bind(JSON.stringify(orgs.slice(i, i + rowsPerStatement))),
    );
  }
  for (let i = 0; i < connections.length; i += rowsPerStatement) {
    statements.push(
      env.DB.prepare(
        `INSERT INTO provider_connections
           (id, org_id, provider, credentials_ciphertext, credentials_iv, status, consecutive_failures,
            next_sync_at, created_at, updated_at)
         SELECT value ->> 'id', value ->> 'orgId', value ->> 'provider', 'sealed', 'iv', 'active', 0,
                value ->> 'nextSyncAt', 0, 0
         FROM json_each(?)`,
      ).bind(JSON.stringify(connections.slice(i, i + rowsPerStatement))),
    );
  }
  await env.DB.batch(statements);
  return connections.map((c) => c.id);
}

/** What each run leaves when it ends well, having started as its message was delivered: each one's next time. */
async function finishRuns(starts: SentStart[], dispatchedAt: number) {
  const rows = starts.map((s) => ({
    id: s.connectionId,
    nextSyncAt: nextCycleAt(dispatchedAt + s.delaySeconds * 1000, SYNC_INTERVAL_MS),
  }));
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += 1_000) {
    statements.push(
      env.DB.prepare(
        `UPDATE provider_connections SET next_sync_at = (
           SELECT value ->> 'nextSyncAt' FROM json_each(?1) WHERE value ->> 'id' = provider_connections.id)
         WHERE id IN (SELECT value ->> 'id' FROM json_each(?1))`,
      ).bind(JSON.stringify(rows.slice(i, i + 1_000))),
    );
  }
  await env.DB.batch(statements);
  return new Map(rows.map((r) => [r.id, r.nextSyncAt]));
}

const countBy = (starts: SentStart[]) => {
  const times = new Map<string, number>();
  for (const s of starts) times.set(s.connectionId, (times.get(s.connectionId) ?? 0) + 1);
  return times;
};

describe("the cron's sync dispatch", () => {
  beforeEach(async () => {
    await env.DB.prepare("DELETE FROM provider_connections").run();
  });

  it("queues 10,000 due connections within one tick, each once, and not again while their runs wait", async () => {
    const tick = tickAt(1);
    // Due in the tick's five minutes, at every second of them.
    const ids = await insertConnections(FLEET_CONNECTIONS, (i) => tick + (i % 300) * 1000);

    const first = recordingEnv();
    const startedAtMs = Date.now();
    const result = await dispatchDueSyncs({ env: first.env, now: tick });
    const wallMs = Date.now() - startedAtMs;
    console.log(
      JSON.stringify({
        dispatch: `${FLEET_CONNECTIONS} due connections, one tick`,
        wallMs,
        ...first.counts,
        d1Statements: first.meter.statements,
        d1RoundTrips: first.meter.roundTrips,
        d1Ms: first.meter.ms,
        messages: first.sent.length,
      }),
    );

    expect(result.queued).toBe(FLEET_CONNECTIONS);
    const times = countBy(first.sent);
    expect(times.size).toBe(FLEET_CONNECTIONS);
    expect([...times.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(ids)).toEqual(new Set(times.keys()));
    // Within the Queues and D1 limits of one invocation.
    expect(first.counts.largestCallMessages).toBeLessThanOrEqual(100);
    expect(first.counts.largestCallBytes).toBeLessThan(256_000);
    expect(first.meter.roundTrips + first.counts.queueCalls).toBeLessThan(200);
    // Each delayed to its own second, then spread over the 50 s after it, so each run starts in the
    // minute its next cycle is counted from.
    const dueAt = new Map(ids.map((id, i) => [id, tick + (i % 300) * 1000]));
    for (const s of first.sent) {
      const lateSeconds = s.delaySeconds - ((dueAt.get(s.connectionId) ?? 0) - tick) / 1000;
      expect(lateSeconds).toBeGreaterThanOrEqual(0);
      expect(lateSeconds).toBeLessThan(START_SPREAD_SECONDS);
    }
    expect(new Set(first.sent.map((s) => s.delaySeconds)).size).toBeGreaterThan(300);
    // The window is read, not claimed: the dispatch wrote no row.
    expect(first.meter.rowsWritten).toBe(0);

    // Five minutes on, no run has begun yet (a long queue): nothing is queued a second time.
    const second = recordingEnv();
    expect((await dispatchDueSyncs({ env: second.env, now: tick + SYNC_INTERVAL_MS })).queued).toBe(0);
    expect(second.sent).toEqual([]);

    // Once the runs have ended, each is queued again five minutes after the minute its run
    // started: by the next tick, or (a run that started in the tick's last minute) the one after.
    const nextAt = await finishRuns(first.sent, tick);
    const third = recordingEnv();
    await dispatchDueSyncs({ env: third.env, now: tick + SYNC_INTERVAL_MS });
    const fourth = recordingEnv();
    await dispatchDueSyncs({ env: fourth.env, now: tick + 2 * SYNC_INTERVAL_MS });
    const again = countBy([...third.sent, ...fourth.sent]);
    expect(again.size).toBe(FLEET_CONNECTIONS);
    expect([...again.values()].every((n) => n === 1)).toBe(true);
    for (const s of third.sent) expect(nextAt.get(s.connectionId)).toBeLessThan(tick + 2 * SYNC_INTERVAL_MS);
    for (const s of fourth.sent)
      expect(nextAt.get(s.connectionId)).toBeGreaterThanOrEqual(tick + 2 * SYNC_INTERVAL_MS);
    expect(third.sent.length).toBeGreaterThan(FLEET_CONNECTIONS / 2);
  }, 60_000);

  it("queues a connection due between ticks at the tick before, delayed to its time", async () => {
    const tick = tickAt(1);
    const [early, late, later] = await insertConnections(
      3,
      (i) => [tick + 3 * 60_000, tick + SYNC_INTERVAL_MS - 1, tick + SYNC_INTERVAL_MS][i] ?? 0,
    );
    const recording = recordingEnv();
    expect((await dispatchDueSyncs({ env: recording.env, now: tick })).queued).toBe(2);
    const delayOf = (id: string | undefined) =>
      recording.sent.find((s) => s.connectionId === id)?.delaySeconds;
    expect(delayOf(early)).toBeGreaterThanOrEqual(180);
    expect(delayOf(early)).toBeLessThan(180 + 60);
    expect(delayOf(late)).toBeGreaterThanOrEqual(300);
    // Due on the next tick itself: that tick queues it.
    expect(delayOf(later)).toBeUndefined();
    const next = recordingEnv();
    await dispatchDueSyncs({ env: next.env, now: tick + SYNC_INTERVAL_MS });
    expect(next.sent.map((s) => s.connectionId)).toEqual([later]);
  });

  it("queues a start that never began a run again two ticks later, and only then", async () => {
    const tick = tickAt(1);
    const [connectionId] = await insertConnections(1, () => tick + 1000);
    const ticks = [0, 1, 2, 3].map((n) => tick + n * SYNC_INTERVAL_MS);
    const queuedPerTick: number[] = [];
    for (const at of ticks) {
      const recording = recordingEnv();
      await dispatchDueSyncs({ env: recording.env, now: at });
      queuedPerTick.push(recording.sent.filter((s) => s.connectionId === connectionId).length);
    }
    // The message is lost each time: queued at the tick, passed over on the next (its start may
    // still be waiting in the queue), claimed as overdue on the one after.
    expect(queuedPerTick).toEqual([1, 0, 1, 0]);
  });

  it("claims a connection a missed tick passed over, and starts it at once", async () => {
    const tick = tickAt(1);
    // Due three ticks ago: the ticks since did not run.
    const [overdue] = await insertConnections(1, () => tick - 3 * SYNC_INTERVAL_MS);
    const recording = recordingEnv();
    await dispatchDueSyncs({ env: recording.env, now: tick + 2_000 });
    expect(recording.sent.map((s) => s.connectionId)).toEqual([overdue]);
    expect(recording.sent[0]?.delaySeconds).toBeLessThan(START_SPREAD_SECONDS);
    const row = await env.DB.prepare("SELECT next_sync_at FROM provider_connections WHERE id = ?")
      .bind(overdue)
      .first<{ next_sync_at: number }>();
    expect(row?.next_sync_at).toBe(tick + 2_000);
  });

  it("queues a connection due in the window even while a run holds it: history makes way for it", async () => {
    const tick = tickAt(1);
    const [held] = await insertConnections(1, () => tick + 30_000);
    await env.DB.prepare(
      "UPDATE provider_connections SET lease_until = ?, lease_run_id = 'history' WHERE id = ?",
    )
      .bind(tick + 10 * 60_000, held)
      .run();
    const recording = recordingEnv();
    await dispatchDueSyncs({ env: recording.env, now: tick });
    expect(recording.sent.map((s) => s.connectionId)).toEqual([held]);
  });

  it("leaves overdue connections that a run holds, that are not active, or that are not scheduled", async () => {
    const tick = tickAt(1);
    const [held, expiredLease, paused, unscheduled, due] = await insertConnections(
      5,
      () => tick - 2 * SYNC_INTERVAL_MS,
    );
    const set = (sql: string, id: string | undefined, ...values: unknown[]) =>
      env.DB.prepare(`UPDATE provider_connections SET ${sql} WHERE id = ?`)
        .bind(...values, id)
        .run();
    await set("lease_until = ?, lease_run_id = 'run'", held, tick + 60_000);
    await set("lease_until = ?, lease_run_id = 'run'", expiredLease, tick - 1);
    await set("status = 'needs_attention'", paused);
    await set("next_sync_at = NULL", unscheduled);
    const recording = recordingEnv();
    await dispatchDueSyncs({ env: recording.env, now: tick });
    expect(recording.sent.map((s) => s.connectionId).sort()).toEqual([expiredLease, due].sort());
  });
});
