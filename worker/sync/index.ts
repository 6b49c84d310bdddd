/**
 * worker/sync/'s entry for the rest of the worker: everything outside the folder reaches a
 * connection's sync life (opening its source, runs, history, pages into the fleet store,
 * progress) through these names only.
 */

// A Meteronline CSV upload is a page of that connection the caller hands in instead of a vendor call.
export { type ImportedReading, parseMeteronlineCsv } from "../providers/meteronline/csv-import";
export { type CallerSyncResult, syncForCaller } from "./caller-sync";
export { testVendorConnection } from "./connection-test";
export { storeSystemsPage } from "./fleet-pages";
export { toProgress } from "./progress";
export { consumeSyncBatch } from "./queue-consumer";
export { START_SPREAD_SECONDS, SYNC_INTERVAL_MS, startDelaySeconds, tickWindow } from "./schedule";
export { tendStalledRuns } from "./stalled-runs";
export type { SyncDeps } from "./types";
