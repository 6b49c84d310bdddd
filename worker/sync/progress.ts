import type { SyncProgress } from "../../schema/api/providers";
import type { SyncRunRow } from "../../schema/tables";
import type { Env } from "../env";
import { fleetStoreFor } from "../lib/fleet-store";

/** A run's progress as its organisation's sockets and the sync answers show it. */
export function toProgress(run: SyncRunRow): SyncProgress {
  if (run.trigger === "history") {
    // A history run's units are plant-days (worker/sync/history-run.ts).
    return {
      runId: run.id,
      provider: run.provider,
      status: run.status,
      pagesDone: 0,
      pagesTotal: null,
      systemsStored: 0,
      invertersStored: 0,
      error: run.error,
      historyDaysDone: run.pagesDone,
      historyDaysTotal: run.pagesTotal ?? 0,
    };
  }
  return {
    runId: run.id,
    provider: run.provider,
    status: run.status,
    pagesDone: run.pagesDone,
    pagesTotal: run.pagesTotal,
    systemsStored: run.systemsStored,
    invertersStored: run.invertersCount,
    error: run.error,
  };
}

/** Progress goes to the run's own organisation only: its fleet store holds that organisation's sockets. */
export async function publishProgress(env: Env, run: SyncRunRow): Promise<void> {
  try {
    await fleetStoreFor(env, run.orgId).publish(run.orgId, [
      { type: "sync_progress", data: toProgress(run) },
    ]);
  } catch (error) {
    // A progress message is a courtesy: its loss never fails the run.
    console.warn(JSON.stringify({ msg: "sync progress not published", runId: run.id, error: String(error) }));
  }
}
