import type { SyncTrigger } from "../../schema/domain";
import type { ProviderConnectionRow, SyncRunRow } from "../../schema/tables";
import {
  claimLease,
  closeLease,
  commitRunUnit,
  endRunningSyncRun,
  findConnectionById,
  findSyncRunById,
  insertSyncRun,
  renewLease,
  type SyncRunUpdate,
  updateConnection,
  updateSyncRun,
} from "../data/connections";
import { connectionCatalogue } from "../data/monitoring";
import { timezoneAt } from "../domain/geo/timezone-at";
import type { SyncUnitKind } from "../env";
import { runBatch } from "../lib/db";
import { CallsStopped, ProviderError, type ProviderErrorKind, StaleListsError } from "../providers/errors";
import { findApiAdapter } from "../providers/registry";
import type { NormalisedSystem } from "../providers/types";
import { storeSystemsPage } from "./fleet-pages";
import { needsHistory, runHistoryUnit, startHistoryRun } from "./history-run";
import { publishProgress } from "./progress";
import {
  backoffMs,
  cadenceMs,
  describeFailure,
  nextSyncDelayMs,
  runReadsLists,
  SYNC_LEASE_MS,
  startDelaySeconds,
  tickWindow,
} from "./schedule";
import { openSource, type Source } from "./source";
import { enqueueOf, type SyncDeps, type UnitOutcome } from "./types";

/** Adapter tests hold a vendor session the way a run does. */
export { memorySession } from "./source";

/**
 * A sync is a run of small units. Each unit reads one piece of the vendor account (a list page,
 * a batch of plants) through the adapter's `syncPage`, stores it (D1 metadata, the fleet store's
 * points, which publishes them at once), and commits the adapter's cursor on the run's row. The
 * next unit follows in the same invocation while its time allows, otherwise as a queue message,
 * so a run never needs more than one invocation's limits and a killed one resumes from its last
 * committed unit. The connection's lease belongs to the run (its id is the owner token); a unit
 * renews it when less than half is left.
 *
 * A run either reads the vendor's plant and device lists (once a day, a new connection, a user's
 * sync) or, on steady cycles, only the live values of the plants the last such read stored; a
 * steady run whose vendor no longer knows a stored plant turns into a run that reads the lists.
 */

/** A queue invocation works on a run this long, then hands the next unit to a new message. */
export const INVOCATION_WORK_MS = 60_000;

/**
 * A started run. A scheduled one is `held`: kept in this invocation's memory, with no `sync_runs`
 * row, until it must outlive the invocation (its next unit goes to the queue) or fails; then it
 * gets its row. One that ends well within the invocation is counted on its connection instead
 * (`routine_syncs`): a row per connection per cycle was most of D1's writes.
 */
export type StartResult = { status: "started"; runId: string; held?: SyncRunRow } | { status: "busy" };

/**
 * Starts a run on the connection unless one holds its lease; the run's id is the lease's owner
 * token. `onlyIfDue` (a scheduled start message) also requires the connection to be active and due.
 */
export async function startRun(
  deps: SyncDeps,
  connectionId: string,
  trigger: SyncTrigger,
  { onlyIfDue = false }: { onlyIfDue?: boolean } = {},
): Promise<StartResult> {
  const { db } = deps;
  const startedAt = deps.now();
  const runId = crypto.randomUUID();
  if (!(await claimLease(db, connectionId, runId, startedAt, startedAt + SYNC_LEASE_MS, { onlyIfDue })))
    return { status: "busy" };
  const connection = await findConnectionById(db, connectionId);
  if (!connection) return { status: "busy" };
  const run: SyncRunRow = {
    id: runId,
    orgId: connection.orgId,
    connectionId,
    provider: connection.provider,
    trigger,
    status: "running",
    startedAt,
    finishedAt: null,
    error: null,
    errorKind: null,
    sitesCount: 0,
    invertersCount: 0,
    readingsCount: 0,
    providerCalls: 0,
    cursor: null,
    unitSeq: 0,
    pagesDone: 0,
    pagesTotal: null,
    systemsStored: 0,
    invocations: 0,
    longestInvocationMs: 0,
    progressAt: startedAt,
    readsLists: runReadsLists(connection, trigger, startedAt),
    newestDataAt: null,
  };
  if (trigger === "cron") return { status: "started", runId, held: run };
  await insertSyncRun(db, run);
  return { status: "started", runId };
}

/** The later of two times, either of which may be unknown. */
const laterOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** The run's invocation counters with this invocation in them, when a unit knows when it began. */
function invocationCounted(deps: SyncDeps, run: SyncRunRow) {
  if (deps.invokedAt === undefined) return {};
  // Wall-clock time, as driveRun counts it (a test's clock may be virtual).
  return {
    invocations: run.invocations + 1,
    longestInvocationMs: Math.max(run.longestInvocationMs, Date.now() - deps.invokedAt),
  };
}

/**
 * A scheduled run still going after this long gets its row: a member's sync then follows it (202
 * with its id) instead of being refused, and support sees it. A small account's cycle (a unit or
 * two, a second or so) never gets there and writes none.
 */
export const HELD_RUN_ROW_AFTER_MS = 10_000;

/** How long a unit that made way waits before it is tried again. */
export const YIELD_DELAY_SECONDS = 30;

/**
 * Works on a run from unit `unit` until it ends or `workUntil` has passed, then sends the next unit
 * as a message. Answers the run's row as this invocation leaves it.
 */
export async function driveRun(
  deps: SyncDeps,
  runId: string,
  unit: number,
  workUntil: number,
  kind: SyncUnitKind = "snapshot",
  heldRun?: SyncRunRow,
): Promise<SyncRunRow | undefined> {
  const invokedAt = Date.now();
  let held = heldRun;
  const step =
    kind === "history" ? runHistoryUnit : (d: SyncDeps, id: string, u: number) => runUnit(d, id, u, held);
  const enqueue = enqueueOf(deps);
  /** A held run gets its row (as it stands: the next unit starts from it) and is worked on from D1. */
  const keepRow = async () => {
    if (held?.status === "running") await insertSyncRun(deps.db, held);
    held = undefined;
  };
  /** The next unit goes to the queue, from the run's row. */
  const handOn = async (nextUnit: number, delaySeconds?: number) => {
    await keepRow();
    await enqueue({ kind, runId, unit: nextUnit }, delaySeconds === undefined ? undefined : { delaySeconds });
  };
  let next = unit;
  let outcome: UnitOutcome = "continue";
  const unitDeps = { ...deps, invokedAt };
  while (outcome === "continue") {
    outcome = await step(unitDeps, runId, next);
    if (outcome === "yield") {
      await handOn(next, YIELD_DELAY_SECONDS);
      break;
    }
    if (outcome === "handoff") {
      await handOn(next);
      break;
    }
    next++;
    if (outcome === "continue" && deps.now() >= workUntil) {
      await handOn(next);
      break;
    }
    // A long scheduled run (a large account) is kept where a member's sync can follow it.
    if (outcome === "continue" && held && deps.now() - held.startedAt >= HELD_RUN_ROW_AFTER_MS)
      await keepRow();
  }
  // A held run that ended well has no row: it is as this invocation left it.
  const run = (await findSyncRunById(deps.db, runId)) ?? (held?.status === "success" ? held : undefined);
  // A run that ended well in this invocation counted it in its last commit.
  if (
    !run ||
    outcome === "stale" ||
    (outcome === "finished" && run.status === "success" && kind === "snapshot")
  )
    return run;
  const invocationMs = Date.now() - invokedAt;
  await updateSyncRun(deps.db, runId, {
    invocations: run.invocations + 1,
    longestInvocationMs: Math.max(run.longestInvocationMs, invocationMs),
  });
  return {
    ...run,
    invocations: run.invocations + 1,
    longestInvocationMs: Math.max(run.longestInvocationMs, invocationMs),
  };
}

/**
 * When the next cycle of a run that went well is due: one cadence after the minute the run
 * started. A scheduled run starts seconds after its cron tick, and counted from when it stored
 * the next time would fall just after the tick one cadence later, so every other tick would be
 * missed (a 5-minute cadence became 10).
 */
export const nextCycleAt = (startedAt: number, cadenceMs: number) =>
  Math.floor(startedAt / 60_000) * 60_000 + cadenceMs;

/**
 * Whether run `runId` still holds the connection's lease, renewed when less than half of it is
 * left: a unit right after the run's start or a recent renewal writes nothing to D1 for it (a
 * steady cycle is one unit, and every D1 row written is paid for).
 */
async function keepLease(deps: SyncDeps, connection: ProviderConnectionRow, runId: string): Promise<boolean> {
  const now = deps.now();
  const leftMs = (connection.leaseUntil ?? 0) - now;
  if (connection.leaseRunId === runId && leftMs > SYNC_LEASE_MS / 2) return true;
  return renewLease(deps.db, connection.id, runId, now + SYNC_LEASE_MS);
}

/**
 * Commits a unit: on the run's row (of two deliveries of the unit, only the first gets it back),
 * or for a held run in memory, where nothing else can deliver it.
 */
async function commitUnit(
  db: SyncDeps["db"],
  run: SyncRunRow,
  unit: number,
  held: SyncRunRow | undefined,
  values: SyncRunUpdate,
): Promise<SyncRunRow | undefined> {
  if (!held) return commitRunUnit(db, run.id, unit, values);
  return Object.assign(held, values, { unitSeq: unit + 1 });
}

/** Sends the connection's scheduled start for `dueAt` (delayed to it, with its spread). */
async function sendStart(deps: SyncDeps, connectionId: string, dueAt: number) {
  await enqueueOf(deps)(
    { kind: "start", connectionId },
    { delaySeconds: startDelaySeconds(connectionId, dueAt, deps.now()) },
  );
}

/**
 * One unit: renew the lease, read the page at the run's cursor, store it, commit the cursor. A
 * message whose unit is not the run's next one (a redelivery after the unit committed, a resend
 * by maintenance) changes nothing.
 */
export async function runUnit(
  deps: SyncDeps,
  runId: string,
  unit: number,
  held?: SyncRunRow,
): Promise<UnitOutcome> {
  const { db } = deps;
  const run = held ?? (await findSyncRunById(db, runId));
  if (run?.status !== "running" || run.unitSeq !== unit) return "stale";
  const connection = await findConnectionById(db, run.connectionId);
  if (!connection || !(await keepLease(deps, connection, runId))) {
    // Another run holds the connection now (this one stood still past its lease).
    if (held) return "stale";
    await updateSyncRun(db, runId, {
      status: "failed",
      finishedAt: deps.now(),
      error: "The sync stopped moving.",
    });
    return "stale";
  }
  let source: Source | null = null;
  try {
    source = await openSource(deps, connection);
    const { adapter, credentials, ctx, http } = source;
    const known = run.readsLists
      ? null
      : await connectionCatalogue(db, connection.orgId, connection.id, connection.listsReadAt ?? 0);
    const page = await adapter.syncPage(ctx, credentials, run.cursor, known);
    const systems = withZones(page.systems);
    const storedAt = deps.now();
    const scope = {
      orgId: connection.orgId,
      provider: connection.provider,
      connectionId: connection.id,
      now: storedAt,
    };
    // Metadata and alarms to D1, points to the fleet store, which publishes them as it stores them.
    if (systems.length > 0 || (page.alarms?.length ?? 0) > 0) {
      await storeSystemsPage(deps, scope, {
        systems,
        alarms: page.alarms,
        publish: true,
        listedAt: run.readsLists ? run.startedAt : undefined,
      });
    }
    const newestDataAt = systems.reduce<number | null>(
      (newest, s) => (s.dataTime !== null && (newest === null || s.dataTime > newest) ? s.dataTime : newest),
      laterOf(connection.newestDataAt, run.newestDataAt),
    );
    const sessionBlob = await source.renewedSession();
    const finished = page.nextCursor === null;
    const committed = await commitUnit(db, run, unit, held, {
      cursor: page.nextCursor,
      pagesDone: run.pagesDone + page.pagesRead,
      pagesTotal: page.totalPages ?? run.pagesTotal,
      systemsStored: run.systemsStored + systems.length,
      sitesCount: run.sitesCount + systems.length,
      invertersCount: run.invertersCount + systems.reduce((n, s) => n + s.inverters.length, 0),
      readingsCount: run.readingsCount + systems.filter((s) => s.dataTime !== null).length,
      providerCalls: run.providerCalls + http.calls,
      progressAt: storedAt,
      newestDataAt,
      ...(finished
        ? { status: "success" as const, finishedAt: storedAt, ...invocationCounted(deps, run) }
        : {}),
    });
    // Another delivery of this unit committed first: its data is the same, and it goes on.
    if (!committed) return "stale";
    if (finished) {
      // Cycles run from start to start: a run that needs longer than the interval lengthens its cycle.
      const cycleMs = cadenceMs(await nextSyncDelayMs(db, connection, storedAt), storedAt - run.startedAt);
      const nextSyncAt = nextCycleAt(run.startedAt, cycleMs);
      await closeLease(
        db,
        connection.id,
        runId,
        {
          status: "active",
          lastSyncAt: storedAt,
          lastSyncStatus: "success",
          lastError: null,
          newestDataAt,
          consecutiveFailures: 0,
          nextSyncAt,
          ...(run.readsLists ? { listsReadAt: run.startedAt } : {}),
          ...(sessionBlob ?? {}),
        },
        { countRoutine: held !== undefined },
      );
      // The cron has dispatched the window of the next time already (a long run): the start goes now.
      if (tickWindow(nextSyncAt).from <= storedAt) await sendStart(deps, connection.id, nextSyncAt);
      // `connection` is as it was before this run: its last outcome tells whether days are missing.
      if (needsHistory(connection, storedAt, cycleMs)) await startHistoryRun(deps, source);
    } else if (sessionBlob) {
      // The vendor renewed its session: kept at once, as a later unit signs in with it.
      await updateConnection(db, connection.id, sessionBlob);
    }
    await publishProgress(deps.env, committed);
    return finished ? "finished" : "continue";
  } catch (error) {
    const calls = source?.http.calls ?? 0;
    // Nothing of the unit was committed: the queue does it again from the same cursor.
    if (error instanceof CallsStopped) return "handoff";
    if (error instanceof StaleListsError && !run.readsLists) {
      return readListsInstead(deps, run, unit, calls, held);
    }
    const displayName = findApiAdapter(connection.provider)?.displayName ?? connection.provider;
    await failRun(deps, connection, run, calls, error, displayName, held);
    return "finished";
  }
}

/**
 * A steady run whose vendor no longer knows a stored plant or device reads the lists from the
 * start instead: the plants its earlier units stored stay, the counts start again with the lists.
 */
async function readListsInstead(
  deps: SyncDeps,
  run: SyncRunRow,
  unit: number,
  calls: number,
  held: SyncRunRow | undefined,
): Promise<UnitOutcome> {
  const committed = await commitUnit(deps.db, run, unit, held, {
    cursor: null,
    readsLists: true,
    pagesDone: 0,
    pagesTotal: null,
    systemsStored: 0,
    sitesCount: 0,
    invertersCount: 0,
    readingsCount: 0,
    providerCalls: run.providerCalls + calls,
    progressAt: deps.now(),
  });
  if (!committed) return "stale";
  await publishProgress(deps.env, committed);
  return "continue";
}

/**
 * A unit whose page kept failing (the transport already retried it) ends the run: recorded with a
 * readable reason, the connection backs off (or, for rejected credentials, waits for the user).
 * Pages stored by earlier units stay.
 */
async function failRun(
  deps: SyncDeps,
  connection: ProviderConnectionRow,
  run: SyncRunRow,
  calls: number,
  error: unknown,
  displayName: string,
  held: SyncRunRow | undefined,
): Promise<void> {
  const kind: ProviderErrorKind | "unexpected" = error instanceof ProviderError ? error.kind : "unexpected";
  if (!(error instanceof ProviderError)) {
    // Logged without credentials: only the connection and the error's own message.
    console.error(
      JSON.stringify({
        msg: "sync failed unexpectedly",
        connectionId: connection.id,
        provider: connection.provider,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      }),
    );
  }
  const detail = error instanceof ProviderError ? error.message : "internal error";
  const retryAfter = error instanceof ProviderError ? error.retryAfterMs : undefined;
  await closeRun(
    deps,
    connection,
    run,
    { kind, message: describeFailure(kind, displayName, detail), retryAfter, calls },
    held,
  );
}

/** Closes a run as failed and frees its connection with a backoff; maintenance uses it for stuck runs. */
export async function closeRun(
  deps: Pick<SyncDeps, "db" | "env" | "now">,
  connection: ProviderConnectionRow,
  run: SyncRunRow,
  failure: { kind: ProviderErrorKind | "unexpected"; message: string; retryAfter?: number; calls: number },
  held?: SyncRunRow,
): Promise<void> {
  const finishedAt = deps.now();
  const ended = {
    status: "failed" as const,
    finishedAt,
    error: failure.message,
    errorKind: failure.kind,
    providerCalls: run.providerCalls + failure.calls,
  };
  const failures = connection.consecutiveFailures + 1;
  const stopRetrying =
    failure.kind === "auth" ||
    failure.kind === "invalid_request" ||
    failure.kind === "unreadable_credentials";
  await runBatch(deps.db, [
    closeLease(deps.db, connection.id, run.id, {
      status: stopRetrying ? "needs_attention" : "active",
      lastSyncAt: finishedAt,
      lastSyncStatus: "failed",
      lastError: failure.message,
      // What the pages stored before the failure brought.
      newestDataAt: laterOf(connection.newestDataAt, run.newestDataAt),
      consecutiveFailures: failures,
      nextSyncAt: stopRetrying ? null : finishedAt + backoffMs(failures, failure.retryAfter),
    }),
    // A held run's failure is kept: failures are what the sync history is read for.
    held ? insertSyncRun(deps.db, Object.assign(held, ended)) : endRunningSyncRun(deps.db, run.id, ended),
  ]);
  const closed = await findSyncRunById(deps.db, run.id);
  if (closed) await publishProgress(deps.env, closed);
}

/**
 * A vendor that gives coordinates but no zone (SolisCloud lists an hour offset at most) gets the
 * zone at its coordinates, so its local days are counted on its own clock rather than UTC.
 */
function withZones(systems: NormalisedSystem[]): NormalisedSystem[] {
  return systems.map((s) =>
    s.timezone === null && s.latitude !== null && s.longitude !== null
      ? { ...s, timezone: timezoneAt(s.latitude, s.longitude) }
      : s,
  );
}
