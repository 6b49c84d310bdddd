import { findConnectionById, findSyncRunById } from "../data/connections";
import type { Env, SyncMessage } from "../env";
import { createDb } from "../lib/db";
import { snapshotDue } from "./history-run";
import { driveRun, INVOCATION_WORK_MS, startRun } from "./run";
import { enqueueOf, type SyncDeps } from "./types";

/**
 * A message starts a connection's scheduled run (nothing happens if one is going) or carries a
 * run's next unit. Either way this invocation works on the run for INVOCATION_WORK_MS at most
 * and leaves the rest to the next message. A message is acknowledged once its unit committed;
 * one whose invocation is killed is delivered again and resumes from the run's last commit.
 */
export async function consumeSyncBatch(batch: MessageBatch<SyncMessage>, env: Env): Promise<void> {
  const deps: SyncDeps = { db: createDb(env.DB), env, now: () => Date.now() };
  for (const message of batch.messages) {
    await consumeSyncMessage(deps, message.body);
    message.ack();
  }
}

export async function consumeSyncMessage(deps: SyncDeps, body: SyncMessage): Promise<void> {
  const workUntil = deps.now() + INVOCATION_WORK_MS;
  if (body.kind === "start") {
    const started = await startRun(deps, body.connectionId, "cron", { onlyIfDue: true });
    if (started.status === "started")
      await driveRun(deps, started.runId, 0, workUntil, "snapshot", started.held);
    else await waitForHistory(deps, body);
    return;
  }
  await driveRun(deps, body.runId, body.unit, workUntil, body.kind);
}

/** How often, and how far apart, a scheduled start waits for a history unit to let go. */
const HISTORY_WAITS = 12;
const HISTORY_WAIT_SECONDS = 5;

/**
 * A scheduled start that finds a history unit holding the connection: the connection is due, which
 * the history run makes way for at its next unit (one plant-day), so the start comes back a few
 * seconds later. A start whose cycle is no longer due (another run took it) or that a snapshot
 * run holds needs nothing: this cycle is being synced.
 */
async function waitForHistory(deps: SyncDeps, body: Extract<SyncMessage, { kind: "start" }>) {
  const waited = body.waited ?? 0;
  if (waited >= HISTORY_WAITS) return;
  const connection = await findConnectionById(deps.db, body.connectionId);
  if (!connection || !snapshotDue(connection, deps.now())) return;
  const holder = connection.leaseRunId ? await findSyncRunById(deps.db, connection.leaseRunId) : undefined;
  if (holder?.trigger !== "history") return;
  await enqueueOf(deps)({ ...body, waited: waited + 1 }, { delaySeconds: HISTORY_WAIT_SECONDS });
}
