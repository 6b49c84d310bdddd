import { findDueConnections, updateConnection } from "../data/connections";
import type { Env } from "../env";
import { createDb, runBatch } from "../lib/db";
import { SYNC_INTERVAL_MS } from "../sync/schedule";

const MAX_DISPATCH_PER_RUN = 500;

/**
 * Finds the connections whose sync is due and queues one message each. Their next sync time
 * moves forward at once, so the next cron run does not queue them again while they wait; the
 * sync itself then sets the real next time (interval or backoff).
 */
export async function dispatchDueSyncs({ env, now }: { env: Env; now: number }) {
  const db = createDb(env.DB);
  const due = await findDueConnections(db, now, MAX_DISPATCH_PER_RUN);
  if (due.length === 0) return { queued: 0 };
  await runBatch(
    db,
    due.map((c) => updateConnection(db, c.id, { nextSyncAt: now + SYNC_INTERVAL_MS })),
  );
  // sendBatch takes at most 100 messages per call.
  for (let i = 0; i < due.length; i += 100) {
    await env.SYNC_QUEUE.sendBatch(
      due.slice(i, i + 100).map((c) => ({ body: { kind: "start" as const, connectionId: c.id } })),
    );
  }
  return { queued: due.length };
}
