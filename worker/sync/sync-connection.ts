import { type ProviderFailureKind, providerFailureKinds } from "../../schema/api/errors";
import type { SyncTrigger } from "../../schema/domain";
import type { SyncRunRow } from "../../schema/tables";
import { findSyncRunById } from "../data/connections";
import { driveRun, startRun } from "./run";
import type { SyncDeps } from "./types";

export type SyncRunResult =
  | { status: "running"; runId: string; run: SyncRunRow }
  | {
      status: "success";
      runId: string;
      sitesCount: number;
      invertersCount: number;
      readingsCount: number;
      run: SyncRunRow;
    }
  | { status: "failed"; runId: string; errorKind: ProviderFailureKind; error: string; run: SyncRunRow }
  | { status: "busy" };

/** The run's recorded failure kind, as one of the error codes' kinds. */
const providerFailureKind = (kind: string | null): ProviderFailureKind =>
  providerFailureKinds.find((known) => known === kind) ?? "unexpected";

/**
 * How long the unit in flight at a request's answer may go on in the background (the request's
 * waitUntil, which the runtime keeps for 30 s after the answer) before it is stopped and handed to
 * the queue, which does it again from the same cursor.
 */
export const BACKGROUND_GRACE_MS = 25_000;

export interface AnswerOptions {
  /** Keeps the work after the answer alive (the request's `executionCtx.waitUntil`). */
  waitUntil?: (promise: Promise<unknown>) => void;
  /** BACKGROUND_GRACE_MS unless a test shortens it. */
  graceMs?: number;
}

/**
 * Starts a run on the connection and works on it in this invocation until it ends or
 * `answerWithinMs` has passed; the queue carries on from there. The answer does not wait for the
 * unit in flight at that moment (a vendor that rate-limits or never answers holds a unit for up to
 * its limit): it reads the run as it stands while the unit finishes in the background, within
 * BACKGROUND_GRACE_MS, and the queue takes the next one. Without a bound the run is driven to its
 * end (tests, benchmarks).
 */
export async function syncConnection(
  deps: SyncDeps,
  connectionId: string,
  trigger: SyncTrigger,
  answerWithinMs = Number.POSITIVE_INFINITY,
  answer: AnswerOptions = {},
): Promise<SyncRunResult> {
  const started = await startRun(deps, connectionId, trigger);
  if (started.status === "busy") return started;
  if (!Number.isFinite(answerWithinMs)) {
    const run = await driveRun(deps, started.runId, 0, Number.POSITIVE_INFINITY, "snapshot", started.held);
    return run ? toRunResult(run) : { status: "busy" };
  }
  const stop = new AbortController();
  const driving = driveRun(
    { ...deps, signal: stop.signal },
    started.runId,
    0,
    deps.now() + answerWithinMs,
    "snapshot",
    started.held,
  );
  let answerTimer: ReturnType<typeof setTimeout> | undefined;
  const answerTime = new Promise<"answer">((resolve) => {
    answerTimer = setTimeout(() => resolve("answer"), Math.max(0, answerWithinMs));
  });
  const first = await Promise.race([driving, answerTime]);
  clearTimeout(answerTimer);
  if (first !== "answer") return first ? toRunResult(first) : { status: "busy" };
  const handOff = setTimeout(() => stop.abort(), answer.graceMs ?? BACKGROUND_GRACE_MS);
  const background = driving
    .catch((error: unknown) => {
      // The answer has gone: maintenance resends a unit whose invocation failed like this.
      console.error(
        JSON.stringify({
          msg: "sync unit failed after the answer",
          runId: started.runId,
          error: String(error),
        }),
      );
    })
    .finally(() => clearTimeout(handOff));
  answer.waitUntil?.(background);
  const run = (await findSyncRunById(deps.db, started.runId)) ?? started.held;
  return run ? toRunResult(run) : { status: "busy" };
}

export function toRunResult(run: SyncRunRow): SyncRunResult {
  if (run.status === "success" || run.status === "partial") {
    return {
      status: "success",
      runId: run.id,
      sitesCount: run.sitesCount,
      invertersCount: run.invertersCount,
      readingsCount: run.readingsCount,
      run,
    };
  }
  if (run.status === "failed") {
    return {
      status: "failed",
      runId: run.id,
      errorKind: providerFailureKind(run.errorKind),
      error: run.error ?? "",
      run,
    };
  }
  return { status: "running", runId: run.id, run };
}
