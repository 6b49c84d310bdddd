import { claimDueConnections } from "../data/connections";
import type { Env, SyncMessage } from "../env";
import { createDb } from "../lib/db";
import { SYNC_INTERVAL_MS } from "../sync";

/** Connections claimed per D1 round trip (a read and an update in one batch). */
export const DISPATCH_PAGE_SIZE = 1_000;
/** Queues takes at most 100 messages (and 256 KB) per sendBatch; a start message is ~60 bytes. */
const SEND_BATCH_MESSAGES = 100;
/**
 * Pages per tick at most: 40 pages are 40 D1 batches and 400 sendBatch calls, under half of the
 * 1,000 subrequests one invocation may make, the rest left to the jobs after this one in the same
 * cron invocation. 40,000 connections a tick; any beyond wait for the next tick, earliest first.
 */
export const MAX_DISPATCH_PAGES_PER_TICK = 40;
/**
 * A queued start holds its connection this long (its next sync time moves there): the next tick
 * passes it over while the message waits in the queue, the run's end sets the real next time, and
 * a start that never began a run (a lost message, or a lease another run held) is queued again on
 * the tick after that.
 */
export const START_PENDING_MS = 2 * SYNC_INTERVAL_MS;
/**
 * Starts are spread over the 50 s after they are due, by a hash of the connection id (the same
 * second every cycle), so D1 and the vendors do not get a whole fleet at once. A run's next cycle
 * counts from the minute it started, so the spread stays inside a tick-aligned due time's minute,
 * with 10 s left for delivery.
 */
export const START_SPREAD_SECONDS = 50;
/** Sends are paced under the queue's 5,000 messages a second. */
const QUEUE_MESSAGES_PER_SECOND = 4_000;

/**
 * Queues a start for every connection due before the next tick, each delayed to the second it is
 * due (plus its spread), so every connection keeps its own cadence: a run that began a minute late
 * is not left for a whole extra tick. Connections are claimed a page at a time and leave the due
 * set as they are claimed, so no cursor is needed and none is queued twice.
 *
 * The cron schedules, rather than each run sending its own next start as a delayed message,
 * because one place then covers every way a run ends (success, backoff, a member's sync, a paused
 * or removed connection), and a lost message is caught by the same query instead of a second sweep.
 */
export async function dispatchDueSyncs({
  env,
  now,
  sendBatch = (messages) => env.SYNC_QUEUE.sendBatch(messages),
}: {
  env: Env;
  now: number;
  /** Where start messages go; a test collects them. */
  sendBatch?: (messages: MessageSendRequest<SyncMessage>[]) => Promise<unknown>;
}) {
  const db = createDb(env.DB);
  const sendIntervalMs = (SEND_BATCH_MESSAGES * 1000) / QUEUE_MESSAGES_PER_SECOND;
  let nextSendAt = 0;
  let queued = 0;
  let pages = 0;
  while (pages < MAX_DISPATCH_PAGES_PER_TICK) {
    const claimed = await claimDueConnections(db, {
      now,
      dueBefore: now + SYNC_INTERVAL_MS,
      heldUntil: now + START_PENDING_MS,
      limit: DISPATCH_PAGE_SIZE,
    });
    pages++;
    for (let i = 0; i < claimed.length; i += SEND_BATCH_MESSAGES) {
      const waitMs = nextSendAt - Date.now();
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
      nextSendAt = Date.now() + sendIntervalMs;
      const messages = claimed.slice(i, i + SEND_BATCH_MESSAGES).map((c) => ({
        body: { kind: "start", connectionId: c.id } satisfies SyncMessage,
        delaySeconds: Math.ceil(Math.max(0, c.dueAt - now) / 1000) + spreadSeconds(c.id),
      }));
      try {
        await sendBatch(messages);
      } catch (error) {
        // The claimed connections left unsent are queued again once their hold ends; the jobs
        // after this one in the cron invocation still run.
        console.error(JSON.stringify({ msg: "sync dispatch stopped", queued, error: String(error) }));
        return { queued, pages };
      }
      queued += messages.length;
    }
    if (claimed.length < DISPATCH_PAGE_SIZE) break;
  }
  return { queued, pages };
}

/** A connection's second within its minute: FNV-1a of its id, so its phase is the same each cycle. */
function spreadSeconds(connectionId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < connectionId.length; i++) {
    hash ^= connectionId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % START_SPREAD_SECONDS;
}
