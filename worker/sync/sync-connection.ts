import type { SyncTrigger } from "../../schema/domain";
import type { ProviderConnectionRow } from "../../schema/tables";
import {
  claimLease,
  findConnectionById,
  insertSyncRun,
  updateConnection,
  updateSyncRun,
} from "../data/connections";
import type { Env } from "../env";
import { openCredentials, openSession, sealSession } from "../lib/connection-secrets";
import { UnreadableBlobError } from "../lib/credentials-crypto";
import { type Keyring, loadKeyring } from "../lib/credentials-keyring";
import { type Db, runBatch } from "../lib/db";
import { timezoneAt } from "../lib/geo/timezone-at";
import type { CallBudget } from "../providers/budget";
import { ProviderError, type ProviderErrorKind } from "../providers/errors";
import { ProviderHttp } from "../providers/http";
import { findApiAdapter, providerBudget } from "../providers/registry";
import type { ProviderSession, ProviderSnapshot } from "../providers/types";
import { providerUrls } from "../providers/urls";
import { storeSystemsPage } from "../services/fleet-pages";
import { backoffMs, describeFailure, SYNC_INTERVAL_MS, SYNC_LEASE_MS } from "./schedule";

export interface SyncDeps {
  db: Db;
  env: Env;
  now: () => number;
  /** The vendors' transport; tests and the benchmark hand in the sandbox. */
  fetch?: (request: Request) => Promise<Response>;
  /** Per-call limit; 10 s unless a test shortens it. */
  callTimeoutMs?: number;
  /** How the rate-limit spacing waits; the benchmark advances a virtual clock instead. */
  sleep?: (ms: number) => Promise<void>;
  /** The call budget; the credential's shared one unless a test on a fake clock hands in its own. */
  budget?: CallBudget;
}

export type SyncRunResult =
  | {
      status: "success";
      runId: string;
      sitesCount: number;
      invertersCount: number;
      readingsCount: number;
      newestDataAt: number | null;
      snapshot: ProviderSnapshot;
    }
  | { status: "failed"; runId: string; errorKind: ProviderErrorKind | "unexpected"; error: string }
  | { status: "busy" };

/** A vendor session held for one invocation; `changed` says whether it must be sealed and saved. */
export function memorySession(initial: Record<string, unknown> | null) {
  let value = initial;
  let changed = false;
  const session: ProviderSession = {
    get: () => value,
    set: (next) => {
      value = next;
      changed = true;
    },
  };
  return { session, changed: () => changed, value: () => value };
}

/**
 * One sync of one connection: claim its lease, ask the vendor for a snapshot, store it in one
 * batch, and record the run. A failure of any kind leaves stored data as it was; it is recorded
 * with a readable reason and the connection backs off (or, for rejected credentials, waits for
 * the user).
 */
export async function syncConnection(
  deps: SyncDeps,
  connectionId: string,
  trigger: SyncTrigger,
): Promise<SyncRunResult> {
  const { db } = deps;
  const startedAt = deps.now();
  if (!(await claimLease(db, connectionId, startedAt, startedAt + SYNC_LEASE_MS))) return { status: "busy" };
  const connection = await findConnectionById(db, connectionId);
  if (!connection) return { status: "busy" };
  const adapter = findApiAdapter(connection.provider);
  const runId = crypto.randomUUID();
  await insertSyncRun(db, {
    id: runId,
    orgId: connection.orgId,
    connectionId,
    provider: connection.provider,
    trigger,
    status: "running",
    startedAt,
  });
  let http: ProviderHttp | null = null;
  try {
    if (!adapter)
      throw new ProviderError("invalid_request", `${connection.provider} has no API to sync from`);
    const keyring = await loadKeyring(deps.env);
    const credentials = adapter.credentialsSchema.parse(await readCredentials(keyring, connection));
    http = new ProviderHttp({
      fetch: deps.fetch,
      budget: deps.budget ?? (await providerBudget(deps.env, adapter, credentials)),
      timeoutMs: deps.callTimeoutMs,
      sleep: deps.sleep,
      // The budget follows the injected clock only when the sleep is injected too.
      now: deps.sleep ? deps.now : undefined,
    });
    const stored = await openSession(keyring, connection);
    const session = memorySession(stored);
    const snapshot = withZones(
      await adapter.fetchSnapshot(
        { http, urls: providerUrls(deps.env), now: deps.now, session: session.session },
        credentials,
      ),
    );
    const finishedAt = deps.now();
    const newestDataAt = snapshot.systems.reduce<number | null>(
      (newest, s) => (s.dataTime !== null && (newest === null || s.dataTime > newest) ? s.dataTime : newest),
      connection.newestDataAt,
    );
    const invertersCount = snapshot.systems.reduce((n, s) => n + s.inverters.length, 0);
    const readingsCount = snapshot.systems.filter((s) => s.dataTime !== null).length;
    const sessionBlob = session.changed() ? await sealSession(keyring, connection, session.value()) : null;
    const scope = { orgId: connection.orgId, provider: connection.provider, connectionId, now: finishedAt };
    // Metadata and alarms to D1, points to the organisation's fleet store (which publishes them);
    // the run is marked a success only once both hold the page.
    await storeSystemsPage(deps, scope, {
      systems: snapshot.systems,
      alarms: snapshot.alarms,
      publish: true,
    });
    await runBatch(db, [
      updateConnection(db, connectionId, {
        status: "active",
        lastSyncAt: finishedAt,
        lastSyncStatus: "success",
        lastError: null,
        newestDataAt,
        consecutiveFailures: 0,
        nextSyncAt: finishedAt + SYNC_INTERVAL_MS,
        leaseUntil: null,
        ...(sessionBlob ?? {}),
      }),
      updateSyncRun(db, runId, {
        status: "success",
        finishedAt,
        sitesCount: snapshot.systems.length,
        invertersCount,
        readingsCount,
        providerCalls: http?.calls ?? 0,
      }),
    ]);
    return {
      status: "success",
      runId,
      sitesCount: snapshot.systems.length,
      invertersCount,
      readingsCount,
      newestDataAt,
      snapshot,
    };
  } catch (error) {
    return recordFailure(
      deps,
      connection,
      runId,
      http?.calls ?? 0,
      error,
      adapter?.displayName ?? connection.provider,
    );
  }
}

/** Credentials that no longer decrypt need the user: they must be saved again. */
export async function readCredentials(keyring: Keyring, connection: ProviderConnectionRow): Promise<unknown> {
  try {
    return await openCredentials(keyring, connection);
  } catch (error) {
    if (error instanceof UnreadableBlobError)
      throw new ProviderError("unreadable_credentials", error.message);
    throw error;
  }
}

async function recordFailure(
  deps: SyncDeps,
  connection: ProviderConnectionRow,
  runId: string,
  calls: number,
  error: unknown,
  displayName: string,
): Promise<SyncRunResult> {
  const finishedAt = deps.now();
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
  const message = describeFailure(kind, displayName, detail);
  const failures = connection.consecutiveFailures + 1;
  const stopRetrying = kind === "auth" || kind === "invalid_request" || kind === "unreadable_credentials";
  const retryAfter = error instanceof ProviderError ? error.retryAfterMs : undefined;
  await runBatch(deps.db, [
    updateConnection(deps.db, connection.id, {
      status: stopRetrying ? "needs_attention" : "active",
      lastSyncAt: finishedAt,
      lastSyncStatus: "failed",
      lastError: message,
      consecutiveFailures: failures,
      nextSyncAt: stopRetrying ? null : finishedAt + backoffMs(failures, retryAfter),
      leaseUntil: null,
    }),
    updateSyncRun(deps.db, runId, {
      status: "failed",
      finishedAt,
      error: message,
      errorKind: kind,
      providerCalls: calls,
    }),
  ]);
  return { status: "failed", runId, errorKind: kind, error: message };
}

/**
 * A vendor that gives coordinates but no zone (SolisCloud lists an hour offset at most) gets the
 * zone at its coordinates, so its local days are counted on its own clock rather than UTC.
 */
function withZones(snapshot: ProviderSnapshot): ProviderSnapshot {
  return {
    ...snapshot,
    systems: snapshot.systems.map((s) =>
      s.timezone === null && s.latitude !== null && s.longitude !== null
        ? { ...s, timezone: timezoneAt(s.latitude, s.longitude) }
        : s,
    ),
  };
}
