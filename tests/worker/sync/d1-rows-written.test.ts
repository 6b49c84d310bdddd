import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../../sandbox/app";
import { dispatchDueSyncs } from "../../../worker/cron/dispatch-syncs";
import type { Env, SyncMessage } from "../../../worker/env";
import { createDb } from "../../../worker/lib/db";
import { consumeSyncMessage } from "../../../worker/sync/queue-consumer";
import { tickWindow } from "../../../worker/sync/schedule";
import { syncConnection } from "../../../worker/sync/sync-connection";
import { meteredD1 } from "../d1-meter";
import { connectProvider } from "../fleet-helpers";
import { registerOwner } from "../helpers";

/**
 * D1 rows one steady cycle may write: the lease and the connection's outcome (which frees it). The
 * dispatch reads its window without a write, and a scheduled run that goes well in one invocation
 * keeps no `sync_runs` row.
 */
const MAX_D1_ROWS_PER_STEADY_CYCLE = 2;

/**
 * One scheduled cycle of the organisation's connection at `now` as the cron and the queue run it,
 * against the sandbox on the same clock, D1 metered.
 */
async function steadyCycle(orgId: string, now: number) {
  const sandbox = createSandbox({ now: () => now });
  // Due a second ago, in the tick's window.
  await env.DB.prepare("UPDATE provider_connections SET next_sync_at = ? WHERE org_id = ?")
    .bind(Math.max(tickWindow(now).from, now - 1_000), orgId)
    .run();
  const { db, meter } = meteredD1();
  const messages: SyncMessage[] = [];
  const queue = {
    send: async (body: SyncMessage) => void messages.push(body),
    sendBatch: async (batch: Iterable<MessageSendRequest<SyncMessage>>) => {
      for (const message of batch) messages.push(message.body);
    },
  } as unknown as Queue<SyncMessage>;
  const meteredEnv: Env = { ...env, DB: db, SYNC_QUEUE: queue };
  expect((await dispatchDueSyncs({ env: meteredEnv, now })).queued).toBe(1);
  const deps = {
    db: createDb(db),
    env: meteredEnv,
    now: () => now,
    fetch: async (request: Request) => sandbox.fetch(request),
  };
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (message) await consumeSyncMessage(deps, message);
  }
  const connection = await env.DB.prepare(
    `SELECT routine_syncs, last_sync_at, last_sync_status, lease_run_id,
            (SELECT count(*) FROM sync_runs r WHERE r.connection_id = c.id AND r.trigger = 'cron') AS cron_runs
     FROM provider_connections c WHERE org_id = ?`,
  )
    .bind(orgId)
    .first();
  return { meter, connection };
}

describe("D1 rows written by a scheduled cycle", () => {
  it(`writes at most ${MAX_D1_ROWS_PER_STEADY_CYCLE} D1 rows a steady cycle, the vendor's unchanged alarms none`, async () => {
    const owner = await registerOwner();
    await connectProvider(owner, "solis");
    // 11:22 in Amsterdam on a day the sandbox faults plants: the vendor reports alarms, and every
    // cycle reports them again. A sync at that time stores them and reads the lists.
    const at = Date.UTC(2024, 5, 20, 9, 22, 30);
    const sandbox = createSandbox({ now: () => at });
    const connection = await env.DB.prepare("SELECT id FROM provider_connections WHERE org_id = ?")
      .bind(owner.orgId)
      .first<{ id: string }>();
    const deps = { db: createDb(env.DB), env, now: () => at, fetch: async (r: Request) => sandbox.fetch(r) };
    expect((await syncConnection(deps, connection?.id ?? "", "manual")).status).toBe("success");
    const alarms = await env.DB.prepare(
      "SELECT count(*) AS n FROM alerts WHERE org_id = ? AND provider_alarm_id IS NOT NULL",
    )
      .bind(owner.orgId)
      .first<{ n: number }>();
    expect(alarms?.n).toBeGreaterThan(0);
    for (const cycle of [1, 2]) {
      const cycleAt = at + cycle * 300_000;
      const { meter, connection } = await steadyCycle(owner.orgId, cycleAt);
      console.log(
        `steady cycle ${cycle} (3 plants): ${meter.rowsWritten} D1 rows written in ${meter.roundTrips} calls`,
        JSON.stringify(Object.fromEntries([...meter.bySql].filter(([, rows]) => rows > 0))),
      );
      // The cycle went well and is counted on its connection, with no run row.
      expect(connection).toEqual({
        routine_syncs: cycle,
        last_sync_at: cycleAt,
        last_sync_status: "success",
        lease_run_id: null,
        cron_runs: 0,
      });
      // The vendor's alarms, reported again unchanged, write nothing.
      const alarmRows = [...meter.bySql].filter(([sql]) => sql.startsWith("INSERT INTO alerts"));
      expect(alarmRows.reduce((sum, [, rows]) => sum + rows, 0)).toBe(0);
      expect(meter.rowsWritten).toBeLessThanOrEqual(MAX_D1_ROWS_PER_STEADY_CYCLE);
    }
  }, 30_000);
});
