import { endRunningSyncRun, findConnectionById, findStalledRuns } from "../data/connections";
import { deletePlan } from "../data/history";
import type { Env, SyncMessage } from "../env";
import { createDb, runBatch } from "../lib/db";
import { closeRun } from "./run";
import { RESUME_STALLED_AFTER_MS, SYNC_LEASE_MS } from "./schedule";

const MAX_RUNS_PER_PASS = 100;

/**
 * Runs whose units stopped (an invocation killed after committing a unit, before its next message
 * went out): resent their next unit after RESUME_STALLED_AFTER_MS, closed as failed once their
 * lease has run out, so the connection's next run can start. A resent unit that turns out to be a
 * duplicate changes nothing (units are numbered).
 */
export async function tendStalledRuns({
  env,
  now,
  enqueue = (message) => env.SYNC_QUEUE.send(message),
}: {
  env: Env;
  now: number;
  /** Where resent units go; a test collects them. */
  enqueue?: (message: SyncMessage) => Promise<unknown>;
}) {
  const db = createDb(env.DB);
  let resumed = 0;
  let closed = 0;
  for (const run of await findStalledRuns(db, now - RESUME_STALLED_AFTER_MS, MAX_RUNS_PER_PASS)) {
    const connection = await findConnectionById(db, run.connectionId);
    if (connection && (run.progressAt ?? run.startedAt) >= now - SYNC_LEASE_MS) {
      await enqueue({
        kind: run.trigger === "history" ? "history" : "snapshot",
        runId: run.id,
        unit: run.unitSeq,
      });
      resumed++;
      continue;
    }
    const message = "The sync stopped moving and was closed. Sunfleet will retry.";
    if (connection && run.trigger !== "history") {
      await closeRun({ db, env, now: () => now }, connection, run, { kind: "unexpected", message, calls: 0 });
    } else {
      // The connection was removed while the run stood still, or a history run (which leaves the
      // connection's sync outcome alone and frees its lease after each unit): only the run is closed.
      await runBatch(db, [
        endRunningSyncRun(db, run.id, { status: "failed", finishedAt: now, error: message }),
        deletePlan(db, run.id),
      ]);
    }
    closed++;
  }
  return { resumed, closed };
}
