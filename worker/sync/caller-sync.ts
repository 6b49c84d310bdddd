import type { SyncRunRow } from "../../schema/tables";
import { findConnectionById, findOrgSyncRun, markSnapshotDue } from "../data/connections";
import type { Env } from "../env";
import { snapshotDue } from "./history-run";
import { type AnswerOptions, type SyncRunResult, syncConnection } from "./sync-connection";
import type { SyncDeps } from "./types";

/**
 * How long a user-started run works before the answer says "running": the caller has its answer
 * within 20 s, so the answer leaves by 18 s, with room for the request's way in and out (a local
 * runtime under load took 100-200 ms of it).
 */
const ANSWER_WITHIN_MS = 18_000;

/** How long a member's sync waits for a history unit (one plant-day) to make way. */
const HISTORY_MAKES_WAY_MS = 15_000;

/**
 * When the request that starts a sync answers at the latest: ANSWER_WITHIN_MS (the environment may
 * shorten it) after the request began, whatever it waited for before the run started.
 */
function answerDeadline(env: Env, requestedAt: number): number {
  const answerWithinMs = Number(env.SYNC_ANSWER_WITHIN_MS ?? ANSWER_WITHIN_MS);
  return requestedAt + (Number.isFinite(answerWithinMs) ? answerWithinMs : ANSWER_WITHIN_MS);
}

export interface CallerSyncRequest {
  /** The caller's organisation: the run holding the connection is read within it only. */
  orgId: string;
  connectionId: string;
  /** A member's sync waits for background history to make way; saving credentials does not. */
  trigger: "manual" | "save";
  /** When the caller's request began: the answer leaves ANSWER_WITHIN_MS after it. */
  requestedAt: number;
  waitUntil?: AnswerOptions["waitUntil"];
}

/** The run's outcome by the answer time; a busy connection names the run holding it, if any. */
export type CallerSyncResult =
  | Exclude<SyncRunResult, { status: "busy" }>
  | { status: "busy"; holder: SyncRunRow | undefined };

/**
 * A sync a caller starts and waits for: the run is worked on in this request until the answer time,
 * then the unit in flight finishes in the background (the request's waitUntil) and whatever is left
 * goes on in the queue.
 */
export async function syncForCaller(deps: SyncDeps, request: CallerSyncRequest): Promise<CallerSyncResult> {
  const answerAt = answerDeadline(deps.env, request.requestedAt);
  let outcome = await syncUntil(deps, request, answerAt);
  if (request.trigger === "manual") outcome = await aheadOfHistory(deps, request, answerAt, outcome);
  if (outcome.status !== "busy") return outcome;
  return { status: "busy", holder: await leaseHolder(deps, request) };
}

function syncUntil(deps: SyncDeps, request: CallerSyncRequest, answerAt: number) {
  return syncConnection(deps, request.connectionId, request.trigger, Math.max(0, answerAt - Date.now()), {
    waitUntil: request.waitUntil,
  });
}

/** The run holding the connection's lease right now, if any. */
async function leaseHolder(deps: SyncDeps, request: CallerSyncRequest) {
  const holder = (await findConnectionById(deps.db, request.connectionId))?.leaseRunId;
  return holder ? findOrgSyncRun(deps.db, request.orgId, holder) : undefined;
}

/**
 * A member's sync while background history holds the connection between its units: the snapshot
 * is made due, which the history run gives way to at its next unit, and the sync starts then.
 */
async function aheadOfHistory(
  deps: SyncDeps,
  request: CallerSyncRequest,
  answerAt: number,
  first: SyncRunResult,
): Promise<SyncRunResult> {
  let outcome = first;
  // The wait counts towards the answer time: the member hears back within it either way.
  const giveUpAt = Math.min(Date.now() + HISTORY_MAKES_WAY_MS, answerAt);
  while (outcome.status === "busy" && Date.now() < giveUpAt) {
    const holder = await leaseHolder(deps, request);
    if (holder !== undefined && holder.trigger !== "history") break;
    const connection = await findConnectionById(deps.db, request.connectionId);
    if (connection && !snapshotDue(connection, Date.now()))
      await markSnapshotDue(deps.db, request.connectionId, Date.now());
    await new Promise((resolve) => setTimeout(resolve, 250));
    outcome = await syncUntil(deps, request, answerAt);
  }
  return outcome;
}
