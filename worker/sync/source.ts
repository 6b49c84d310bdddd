import type { ProviderConnectionRow } from "../../schema/tables";
import { updateConnection } from "../data/connections";
import { openCredentials, openSession, sealSession } from "../lib/connection-secrets";
import { UnreadableBlobError } from "../lib/credentials-crypto";
import { type Keyring, loadKeyring } from "../lib/credentials-keyring";
import { ProviderError } from "../providers/errors";
import { ProviderHttp, transportLimits } from "../providers/http";
import { findApiAdapter, providerBudget } from "../providers/registry";
import type { ProviderAdapter, ProviderCallContext, ProviderSession } from "../providers/types";
import { providerUrls } from "../providers/urls";
import type { SyncDeps } from "./types";

/** The session columns of a connection row, sealed. */
export type SealedSession = Awaited<ReturnType<typeof sealSession>>;

/**
 * A stored connection opened for its vendor's calls: credentials decrypted and parsed, the
 * transport on the credential's budget, and the vendor session the calls may renew.
 */
export interface Source {
  /** The connection's row as it was when opened. */
  connection: ProviderConnectionRow;
  adapter: ProviderAdapter;
  credentials: unknown;
  http: ProviderHttp;
  ctx: ProviderCallContext;
  /** The session the calls renewed (SMA's tokens), sealed for the row, or null when they left it alone. */
  renewedSession(): Promise<SealedSession | null>;
  /** Saves a renewed session on the connection's row; nothing when the calls left it alone. */
  saveSession(): Promise<void>;
}

export interface OpenOptions {
  /**
   * Whether the calls share one sync unit's time limit (yes by default); a whole backfill made
   * over one source (tests, tools) is many units and has none.
   */
  unitLimit?: boolean;
}

/**
 * Opens the connection's vendor access: the one place a sync or a backfill reads the keyring,
 * the credentials and the stored session, and builds the transport its calls go through.
 */
export async function openSource(
  deps: SyncDeps,
  connection: ProviderConnectionRow,
  options: OpenOptions = {},
): Promise<Source> {
  const adapter = findApiAdapter(connection.provider);
  if (!adapter) throw new ProviderError("invalid_request", `${connection.provider} has no API to sync from`);
  const keyring = await loadKeyring(deps.env);
  const credentials = adapter.credentialsSchema.parse(await readCredentials(keyring, connection));
  const limits = transportLimits(deps.env);
  const http = new ProviderHttp({
    fetch: deps.fetch,
    budget: deps.budget ?? (await providerBudget(deps.env, adapter, credentials)),
    timeoutMs: deps.callTimeoutMs ?? limits.callTimeoutMs,
    // One limit for the unit's calls together, so a unit whose vendor never answers fails in time;
    // a driven clock (benchmarks, tests with their own sleep) is no real invocation's.
    limitMs: deps.sleep || options.unitLimit === false ? undefined : limits.unitLimitMs,
    signal: deps.signal,
    sleep: deps.sleep,
    // The budget follows the injected clock only when the sleep is injected too.
    now: deps.sleep ? deps.now : undefined,
  });
  const session = memorySession(await openSession(keyring, connection));
  const renewedSession = async () =>
    session.changed() ? await sealSession(keyring, connection, session.value()) : null;
  return {
    connection,
    adapter,
    credentials,
    http,
    ctx: { http, urls: providerUrls(deps.env), now: deps.now, session: session.session },
    renewedSession,
    async saveSession() {
      const sealed = await renewedSession();
      if (sealed) await updateConnection(deps.db, connection.id, sealed);
    },
  };
}

/** Credentials that no longer decrypt need the user: they must be saved again. */
async function readCredentials(keyring: Keyring, connection: ProviderConnectionRow): Promise<unknown> {
  try {
    return await openCredentials(keyring, connection);
  } catch (error) {
    if (error instanceof UnreadableBlobError)
      throw new ProviderError("unreadable_credentials", error.message);
    throw error;
  }
}

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
