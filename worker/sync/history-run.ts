import type { ProviderConnectionRow } from "../../schema/tables";
import {
  claimLease,
  closeLease,
  commitRunUnit,
  endRunningSyncRun,
  findConnectionById,
  findSyncRunById,
  insertSyncRun,
} from "../data/connections";
import { ProviderError } from "../providers/errors";
import { backfillUnit, type HistoryUnit, planHistory } from "../services/history-backfill";
import { publishProgress, type SyncDeps, type UnitOutcome } from "./run";
import { SYNC_LEASE_MS } from "./schedule";

/**
 * History as background units of the run machinery. A successful snapshot run of a connection
 * that is new or has a gap behind it starts a second run, trigger `history`, rather than staying
 * running itself: the snapshot's outcome (the user's answer, the connection's last sync, the next
 * schedule) is then recorded exactly as before, and the history run only adds units. Its cursor
 * holds the plan made at its start (plant-days); unit n stores plan[n] with `backfillUnit`, so its
 * pagesDone/pagesTotal count days. Each unit takes the connection's lease for its run and frees it
 * after, so a snapshot run may go between two units; a unit that finds the lease taken stops and
 * maintenance sends it again.
 */

/** A run starts history when the connection is new, a failure streak just ended, or the last success is too old. */
export function needsHistory(connection: ProviderConnectionRow, now: number, cadenceMs: number): boolean {
  if (connection.lastSyncStatus !== "success" || connection.lastSyncAt === null) return true;
  if (connection.consecutiveFailures > 0) return true;
  // Two missed cadences (a pause, an outage of the queue) leave points missing.
  return now - connection.lastSyncAt > 2 * cadenceMs;
}

/** Plans the connection's missing days and, when there are some, starts a history run on them. */
export async function startHistoryRun(deps: SyncDeps, connection: ProviderConnectionRow): Promise<void> {
  if (deps.env.SYNC_HISTORY === "off") return;
  let plan: HistoryUnit[];
  try {
    plan = await planHistory(deps, connection.id);
  } catch (error) {
    // The snapshot has succeeded already; a plan that cannot be made waits for the next gap.
    console.warn(
      JSON.stringify({ msg: "history not planned", connectionId: connection.id, error: String(error) }),
    );
    return;
  }
  if (plan.length === 0) return;
  const runId = crypto.randomUUID();
  const startedAt = deps.now();
  await insertSyncRun(deps.db, {
    id: runId,
    orgId: connection.orgId,
    connectionId: connection.id,
    provider: connection.provider,
    trigger: "history",
    status: "running",
    startedAt,
    progressAt: startedAt,
    cursor: JSON.stringify(plan),
    pagesTotal: plan.length,
  });
  await (deps.enqueue ?? ((m) => deps.env.SYNC_QUEUE.send(m)))({ kind: "history", runId, unit: 0 });
}

/** Whether the connection's next snapshot run is due (an active connection past its next sync time). */
export const snapshotDue = (connection: ProviderConnectionRow, now: number) =>
  connection.status === "active" && connection.nextSyncAt !== null && connection.nextSyncAt <= now;

/** One history unit: one plant-day stored under the connection's lease, then the run's count committed. */
export async function runHistoryUnit(deps: SyncDeps, runId: string, unit: number): Promise<UnitOutcome> {
  const { db } = deps;
  const run = await findSyncRunById(db, runId);
  if (run?.status !== "running" || run.unitSeq !== unit) return "stale";
  const plan = JSON.parse(run.cursor ?? "[]") as HistoryUnit[];
  const day = plan[unit];
  const connection = await findConnectionById(db, run.connectionId);
  if (!connection || !day) {
    await endRunningSyncRun(db, runId, {
      status: "failed",
      finishedAt: deps.now(),
      error: "Nothing to backfill.",
    });
    return "finished";
  }
  const now = deps.now();
  // Live values come first: while the connection's snapshot is due (the scheduler's start message
  // or a member's sync waits for the lease), history makes way and comes back a little later.
  if (snapshotDue(connection, now)) return "yield";
  // A snapshot run holds the connection: leave this unit to maintenance's resend.
  if (!(await claimLease(db, connection.id, runId, now, now + SYNC_LEASE_MS))) return "stale";
  try {
    const result = await backfillUnit(deps, connection.id, day);
    const finished = unit + 1 >= plan.length;
    const committedAt = deps.now();
    const committed = await commitRunUnit(db, runId, unit, {
      pagesDone: unit + 1,
      readingsCount: run.readingsCount + result.pointsStored,
      providerCalls: run.providerCalls + result.providerCalls,
      progressAt: committedAt,
      ...(finished ? { status: "success" as const, finishedAt: committedAt } : {}),
    });
    if (!committed) return "stale";
    await publishProgress(deps.env, committed);
    return finished ? "finished" : "continue";
  } catch (error) {
    // History is a courtesy on top of the snapshot: its failure ends this run, not the connection's sync.
    const message =
      error instanceof ProviderError ? error.message : "The history backfill stopped on an internal error.";
    await endRunningSyncRun(db, runId, {
      status: "failed",
      finishedAt: deps.now(),
      error: message,
      errorKind: error instanceof ProviderError ? error.kind : "unexpected",
    });
    const closed = await findSyncRunById(db, runId);
    if (closed) await publishProgress(deps.env, closed);
    return "finished";
  } finally {
    await closeLease(db, connection.id, runId, {});
  }
}
