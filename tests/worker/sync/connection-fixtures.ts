import { env } from "cloudflare:workers";
import type { ProviderId } from "../../../schema/api/providers";
import { upsertConnection } from "../../../worker/data/connections";
import { sealCredentials } from "../../../worker/lib/connection-secrets";
import { loadKeyring } from "../../../worker/lib/credentials-keyring";
import { createDb } from "../../../worker/lib/db";

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
