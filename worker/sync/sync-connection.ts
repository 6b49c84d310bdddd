import { type ProviderFailureKind, providerFailureKinds } from "../../schema/api/errors";
import type { SyncTrigger } from "../../schema/domain";
import type { SyncRunRow } from "../../schema/tables";
import { driveRun, type SyncDeps, startRun } from "./run";

export type { SyncDeps };

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
 * Starts a run on the connection and works on it in this invocation until it ends or
 * `answerWithinMs` has passed; the queue carries on from there. Without a bound the run is
 * driven to its end (tests, benchmarks).
 */
export async function syncConnection(
  deps: SyncDeps,
  connectionId: string,
  trigger: SyncTrigger,
  answerWithinMs = Number.POSITIVE_INFINITY,
): Promise<SyncRunResult> {
  const started = await startRun(deps, connectionId, trigger);
  if (started.status === "busy") return started;
  const run = await driveRun(deps, started.runId, 0, deps.now() + answerWithinMs);
  if (!run) return { status: "busy" };
  return toRunResult(run);
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
