import { env } from "cloudflare:workers";
import { createSandbox } from "../../../sandbox/app";
import type { ProviderId } from "../../../schema/api/providers";
import { upsertConnection } from "../../../worker/data/connections";
import type { SyncMessage } from "../../../worker/env";
import { sealCredentials } from "../../../worker/lib/connection-secrets";
import { loadKeyring } from "../../../worker/lib/credentials-keyring";
import { createDb } from "../../../worker/lib/db";
import { localBudget } from "../../../worker/providers/budget";
import { solisAdapter } from "../../../worker/providers/solis";
import type { SyncDeps } from "../../../worker/sync/types";

/**
 * An active connection of the organisation with these credentials sealed as the routes seal them,
 * stored without a first run (the test drives its syncs); answers its id.
 */
export async function storeConnection(
  orgId: string,
  provider: ProviderId,
  credentials: Record<string, unknown>,
  at = Date.now(),
): Promise<string> {
  const connectionId = crypto.randomUUID();
  const sealed = await sealCredentials(await loadKeyring(env), orgId, connectionId, credentials);
  await upsertConnection(createDb(env.DB), {
    id: connectionId,
    orgId,
    provider,
    ...sealed,
    status: "active",
    nextSyncAt: null,
    createdAt: at,
    updatedAt: at,
  });
  return connectionId;
}

/**
 * Deps for history runs against the in-process sandbox: history on (the suite's environment turns
 * it off), a Solis account's per-second limits on a clock the injected sleep moves, and the
 * queue's messages collected.
 */
export function historyHarness(solisAccount: { keyId: string; keySecret: string }) {
  let fakeClock = 0;
  const sandbox = createSandbox({ clock: () => fakeClock });
  const sent: SyncMessage[] = [];
  const deps: SyncDeps = {
    db: createDb(env.DB),
    env: { ...env, SYNC_HISTORY: "on" },
    now: () => Date.now(),
    fetch: (request: Request) => Promise.resolve(sandbox.fetch(request)),
    sleep: async (ms: number) => {
      fakeClock += ms;
    },
    budget: localBudget(solisAdapter.callPlan(solisAccount)),
    enqueue: async (message) => {
      sent.push(message);
    },
  };
  return { deps, sent };
}
