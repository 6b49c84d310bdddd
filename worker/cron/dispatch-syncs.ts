import { claimOverdueConnections, type DueCursor, listDueInWindow } from "../data/connections";
import type { Env, SyncMessage } from "../env";
import { createDb } from "../lib/db";
import { SYNC_INTERVAL_MS, startDelaySeconds, tickWindow } from "../sync";

/** Connections read (or, overdue, claimed) per D1 round trip. */
export const DISPATCH_PAGE_SIZE = 1_000;
/** Queues takes at most 100 messages (and 256 KB) per sendBatch; a start message is ~60 bytes. */
const SEND_BATCH_MESSAGES = 100;
/**
 * Pages per tick at most: 40 pages are 40 D1 batches and 400 sendBatch calls, under half of the
 * 1,000 subrequests one invocation may make, the rest left to the jobs after this one in the same
 * cron invocation. 40,000 connections a tick; any beyond are overdue two ticks later and claimed then.
 */
export const MAX_DISPATCH_PAGES_PER_TICK = 40;
/** Sends are paced under the queue's 5,000 messages a second. */
const QUEUE_MESSAGES_PER_SECOND = 4_000;

/**
 * Queues a start for every connection due in this tick's window, each delayed to the second it is
 * due (plus its spread), so every connection keeps its own cadence. The window is read, not
 * claimed: a steady cycle writes no D1 row for its scheduling (the run's end, which moves the next
 * sync time, is the one write), and a start that finds its cycle taken (a member's sync, a second
 * delivery) or the connection held by a snapshot run ends there.
 *
 * What a window passed over (a lost message, a missed tick, a run that ended after the tick of its
 * next time) is overdue: due before the previous window, with no run holding it. Those are claimed
 * (made due now, one write) and started at once.
 *
 * The cron schedules, rather than each run sending its own next start as a delayed message,
 * because one place then covers every way a run ends (success, backoff, a member's sync, a paused
 * or removed connection), and a lost message is caught by the same scan instead of a second sweep.
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
  const window = tickWindow(now);
  const sendIntervalMs = (SEND_BATCH_MESSAGES * 1000) / QUEUE_MESSAGES_PER_SECOND;
  let nextSendAt = 0;
  let queued = 0;
  let pages = 0;

  /** Sends starts for one page of connections, paced; false once the queue refused a batch. */
  const send = async (page: { id: string; dueAt: number }[]) => {
    for (let i = 0; i < page.length; i += SEND_BATCH_MESSAGES) {
      const waitMs = nextSendAt - Date.now();
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
      nextSendAt = Date.now() + sendIntervalMs;
      const messages = page.slice(i, i + SEND_BATCH_MESSAGES).map((c) => ({
        body: { kind: "start", connectionId: c.id } satisfies SyncMessage,
        delaySeconds: startDelaySeconds(c.id, c.dueAt, now),
      }));
      try {
        await sendBatch(messages);
      } catch (error) {
        // What was not sent is overdue by the tick after next and claimed then; the jobs after
        // this one in the cron invocation still run.
        console.error(JSON.stringify({ msg: "sync dispatch stopped", queued, error: String(error) }));
        return false;
      }
      queued += messages.length;
    }
    return true;
  };

  let after: DueCursor | null = null;
  while (pages < MAX_DISPATCH_PAGES_PER_TICK) {
    const page = await listDueInWindow(db, { ...window, after, limit: DISPATCH_PAGE_SIZE });
    pages++;
    if (!(await send(page))) return { queued, pages };
    after = page.at(-1) ?? null;
    if (page.length < DISPATCH_PAGE_SIZE) break;
  }
  while (pages < MAX_DISPATCH_PAGES_PER_TICK) {
    const page = await claimOverdueConnections(db, {
      now,
      dueBefore: window.from - SYNC_INTERVAL_MS,
      limit: DISPATCH_PAGE_SIZE,
    });
    pages++;
    if (!(await send(page))) return { queued, pages };
    if (page.length < DISPATCH_PAGE_SIZE) break;
  }
  return { queued, pages };
}
