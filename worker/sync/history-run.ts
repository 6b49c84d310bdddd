import type { ProviderConnectionRow, SyncRunRow } from "../../schema/tables";
import {
  claimLease,
  closeLease,
  endRunningSyncRun,
  findConnectionById,
  findSyncRunById,
  insertSyncRun,
  type SyncRunUpdate,
} from "../data/connections";
import {
  claimPlanPlant,
  commitHistoryUnit,
  deletePlan,
  finishPlanDay,
  insertPlanPlants,
  listConnectionSystemsAfter,
} from "../data/history";
import { type BatchStatement, runBatch } from "../lib/db";
import { ProviderError } from "../providers/errors";
import { backfillUnit, historyReadable, PLAN_PLANTS_PER_STEP, planPlants } from "./history-backfill";
import { publishProgress } from "./progress";
import { SYNC_LEASE_MS } from "./schedule";
import type { Source } from "./source";
import { enqueueOf, type SyncDeps, type UnitOutcome } from "./types";

/**
 * History as background units of the run machinery. A successful snapshot run of a connection
 * that is new or has a gap behind it starts a second run, trigger `history`, rather than staying
 * running itself: the snapshot's outcome (the user's answer, the connection's last sync, the next
 * schedule) is then recorded exactly as before, and the history run only adds units.
 *
 * The run first plans, PLAN_PLANTS_PER_STEP plants a unit: each plant's missing days become one
 * row of `history_plan_plants`, and the run's cursor holds only the last plant planned. Then
 * each unit stores one plant-day with `backfillUnit`, newest first across the fleet (every
 * plant's today and yesterday before older days): `pagesDone` counts the days stored,
 * `pagesTotal` the days planned. Nothing of the run's state grows with plants × days.
 * Each day unit takes the connection's lease for its run and frees it after, so a snapshot run
 * may go between two units; a unit that finds the lease taken stops and maintenance sends it again.
 */

/** A run starts history when the connection is new, a failure streak just ended, or the last success is too old. */
export function needsHistory(connection: ProviderConnectionRow, now: number, cadenceMs: number): boolean {
  if (connection.lastSyncStatus !== "success" || connection.lastSyncAt === null) return true;
  if (connection.consecutiveFailures > 0) return true;
  // Two missed cadences (a pause, an outage of the queue) leave points missing.
  return now - connection.lastSyncAt > 2 * cadenceMs;
}

/** The planning step's position: the D1 id of the last plant planned ("" before the first). */
const planCursor = (afterSystemId: string) => JSON.stringify({ planAfter: afterSystemId });

function plannedAfter(cursor: string | null): string | null {
  if (cursor === null) return null;
  const parsed = JSON.parse(cursor) as { planAfter?: unknown };
  return typeof parsed.planAfter === "string" ? parsed.planAfter : null;
}

/**
 * Starts a history run on the connection the snapshot run has open when its vendor has history;
 * the run plans its own days.
 */
export async function startHistoryRun(deps: SyncDeps, source: Source): Promise<void> {
  if (deps.env.SYNC_HISTORY === "off" || !historyReadable(source)) return;
  const { connection } = source;
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
    cursor: planCursor(""),
    pagesTotal: 0,
  });
  await enqueueOf(deps)({ kind: "history", runId, unit: 0 });
}

/** Whether the connection's next snapshot run is due (an active connection past its next sync time). */
export const snapshotDue = (connection: ProviderConnectionRow, now: number) =>
  connection.status === "active" && connection.nextSyncAt !== null && connection.nextSyncAt <= now;

/** One history unit: a planning step while the plan is being made, otherwise one plant-day. */
export async function runHistoryUnit(deps: SyncDeps, runId: string, unit: number): Promise<UnitOutcome> {
  const { db } = deps;
  const run = await findSyncRunById(db, runId);
  if (run?.status !== "running" || run.unitSeq !== unit) return "stale";
  const connection = await findConnectionById(db, run.connectionId);
  if (!connection) {
    await endHistoryRun(deps, run, { status: "failed", error: "Nothing to backfill." });
    return "finished";
  }
  const planAfter = plannedAfter(run.cursor);
  try {
    if (planAfter !== null) return await planStep(deps, run, connection, unit, planAfter);
    return await dayStep(deps, run, connection, unit);
  } catch (error) {
    // History is a courtesy on top of the snapshot: its failure ends this run, not the connection's sync.
    const message =
      error instanceof ProviderError ? error.message : "The history backfill stopped on an internal error.";
    if (!(error instanceof ProviderError)) {
      console.error(JSON.stringify({ msg: "history unit failed", runId, error: String(error) }));
    }
    await endHistoryRun(deps, run, {
      status: "failed",
      error: message,
      errorKind: error instanceof ProviderError ? error.kind : "unexpected",
    });
    return "finished";
  }
}

/** Plans the next PLAN_PLANTS_PER_STEP plants: their missing days become plan rows. */
async function planStep(
  deps: SyncDeps,
  run: SyncRunRow,
  connection: ProviderConnectionRow,
  unit: number,
  planAfter: string,
): Promise<UnitOutcome> {
  const systems = await listConnectionSystemsAfter(
    deps.db,
    connection.orgId,
    connection.id,
    planAfter,
    PLAN_PLANTS_PER_STEP,
  );
  const plants = await planPlants(deps, connection.orgId, systems);
  const rows = plants.map((plant) => ({
    runId: run.id,
    ...plant,
    done: 0,
    nextDate: plant.dates.at(-1) ?? "",
  }));
  const daysTotal = (run.pagesTotal ?? 0) + plants.reduce((n, plant) => n + plant.dates.length, 0);
  const planned = systems.length < PLAN_PLANTS_PER_STEP;
  const committedAt = deps.now();
  // One transaction: a delivery that loses the commit adds the same rows, which are already there.
  const [committed] = await commitWith(deps, run.id, unit, insertPlanPlants(deps.db, rows), {
    cursor: planned ? null : planCursor(systems.at(-1)?.id ?? planAfter),
    pagesTotal: daysTotal,
    progressAt: committedAt,
    ...(planned && daysTotal === (run.pagesDone ?? 0)
      ? { status: "success" as const, finishedAt: committedAt }
      : {}),
  });
  if (!committed) return "stale";
  await publishProgress(deps.env, committed);
  return committed.status === "running" ? "continue" : "finished";
}

/** Stores the newest day left of the plan under the connection's lease. */
async function dayStep(
  deps: SyncDeps,
  run: SyncRunRow,
  connection: ProviderConnectionRow,
  unit: number,
): Promise<UnitOutcome> {
  const { db } = deps;
  const plant = await claimPlanPlant(db, run.id);
  if (!plant) {
    await endHistoryRun(deps, run, { status: "failed", error: "Nothing to backfill." });
    return "finished";
  }
  const now = deps.now();
  // Live values come first: while the connection's snapshot is due (the scheduler's start message
  // or a member's sync waits for the lease), history makes way and comes back a little later.
  if (snapshotDue(connection, now)) return "yield";
  // A snapshot run holds the connection: leave this unit to maintenance's resend.
  if (!(await claimLease(db, connection.id, run.id, now, now + SYNC_LEASE_MS))) return "stale";
  try {
    const result = await backfillUnit(deps, connection.id, {
      systemId: plant.systemId,
      providerSystemId: plant.providerSystemId,
      date: plant.nextDate,
      timezone: plant.timezone,
    });
    const finished = run.pagesDone + 1 >= (run.pagesTotal ?? 0);
    const committedAt = deps.now();
    const [committed] = await commitWith(deps, run.id, unit, [finishPlanDay(db, plant)], {
      pagesDone: run.pagesDone + 1,
      readingsCount: run.readingsCount + result.pointsStored,
      providerCalls: run.providerCalls + result.providerCalls,
      progressAt: committedAt,
      ...(finished ? { status: "success" as const, finishedAt: committedAt } : {}),
    });
    if (!committed) return "stale";
    await publishProgress(deps.env, committed);
    return finished ? "finished" : "continue";
  } finally {
    await closeLease(db, connection.id, run.id, {});
  }
}

/**
 * Commits unit `unit` of the run together with `statements` in one D1 transaction; answers the
 * run as committed, or nothing when another delivery of the unit committed first.
 */
async function commitWith(
  deps: SyncDeps,
  runId: string,
  unit: number,
  statements: BatchStatement[],
  values: SyncRunUpdate,
): Promise<[SyncRunRow | undefined]> {
  const results = await runBatch(deps.db, [...statements, commitHistoryUnit(deps.db, runId, unit, values)]);
  if ((results.at(-1)?.meta.changes ?? 0) === 0) return [undefined];
  return [await findSyncRunById(deps.db, runId)];
}

async function endHistoryRun(
  deps: SyncDeps,
  run: SyncRunRow,
  outcome: { status: "failed"; error: string; errorKind?: string },
): Promise<void> {
  await runBatch(deps.db, [
    endRunningSyncRun(deps.db, run.id, { ...outcome, finishedAt: deps.now() }),
    deletePlan(deps.db, run.id),
  ]);
  const closed = await findSyncRunById(deps.db, run.id);
  if (closed) await publishProgress(deps.env, closed);
}
