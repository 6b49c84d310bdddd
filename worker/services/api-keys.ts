import type { ApiKey, ApiKeyScope, CreateApiKeyInput, CreatedApiKey } from "../../schema/api/api-keys";
import type { ApiKeyRow } from "../../schema/tables";
import { findActiveApiKey, insertApiKey, listApiKeys, revokeApiKeyRow, touchApiKey } from "../data/api-keys";
import { runBatch } from "../lib/db";
import { notFound, tooManyRequests } from "../lib/errors";
import { newId, randomToken, sha256Hex } from "../lib/ids";
import { auditEntry } from "./audit";
import { authorizeOrgAction } from "./authorization";
import type { CurrentUser, ServiceContext, UserContext } from "./context";

export const API_KEY_PREFIX = "sfk_";
/** Requests a key may make per minute; a Durable Object per key counts them. */
export const API_KEY_REQUESTS_PER_MINUTE = 120;
const MINUTE_MS = 60_000;
/** Last-used moves forward at most once a minute: one write a minute per busy key. */
const TOUCH_AFTER_MS = MINUTE_MS;

const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  prefix: row.prefix,
  createdBy: row.createdBy,
  createdAt: new Date(row.createdAt).toISOString(),
  lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt).toISOString(),
});

/** Creates a key; the answer is the only place the key itself ever appears. */
export async function createApiKey(ctx: UserContext, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const org = authorizeOrgAction(ctx, "apiKeys:manage");
  const key = `${API_KEY_PREFIX}${randomToken()}`;
  const row: ApiKeyRow = {
    id: newId(),
    orgId: org.user.orgId,
    name: input.name,
    scope: input.scope,
    keyHash: await sha256Hex(key),
    prefix: key.slice(0, API_KEY_PREFIX.length + 6),
    createdBy: org.user.id,
    createdAt: org.now,
    lastUsedAt: null,
    revokedAt: null,
  };
  await runBatch(org.db, [
    insertApiKey(org.db, row),
    auditEntry(org, {
      orgId: org.user.orgId,
      actorId: org.user.id,
      actorEmail: org.user.email,
      action: "api_key.create",
      targetType: "api_key",
      targetId: row.id,
      details: { name: row.name, scope: row.scope },
    }),
  ]);
  return { ...toApiKey(row), key };
}

export async function listOrgApiKeys(ctx: UserContext): Promise<ApiKey[]> {
  const org = authorizeOrgAction(ctx, "apiKeys:manage");
  return (await listApiKeys(org.db, org.user.orgId)).map(toApiKey);
}

/** Revokes a key of the caller's organisation; the next request with it answers 401. */
export async function revokeApiKey(ctx: UserContext, keyId: string): Promise<void> {
  const org = authorizeOrgAction(ctx, "apiKeys:manage");
  const [revoked] = await revokeApiKeyRow(org.db, org.user.orgId, keyId, org.now);
  if (!revoked) throw notFound("api_key", "API key");
  await auditEntry(org, {
    orgId: org.user.orgId,
    actorId: org.user.id,
    actorEmail: org.user.email,
    action: "api_key.revoke",
    targetType: "api_key",
    targetId: keyId,
    details: { name: revoked.name },
  });
}

/** The member an API key acts as: its organisation, a role bounded by the key's scope. */
const keyCaller = (key: { id: string; orgId: string; orgName: string; name: string; scope: ApiKeyScope }) =>
  ({
    id: `apikey:${key.id}`,
    email: `api-key:${key.name}`,
    fullName: key.name,
    role: key.scope === "write" ? "orgEngineer" : "user",
    orgId: key.orgId,
    orgName: key.orgName,
    permissions: key.scope === "write" ? ["credentials", "sites", "portfolios"] : [],
    apiKey: { id: key.id, scope: key.scope },
  }) satisfies CurrentUser;

/** The caller a presented key stands for, or null when it is unknown or revoked; 429 over its rate. */
export async function authenticateApiKey(ctx: ServiceContext, key: string): Promise<CurrentUser | null> {
  if (!key.startsWith(API_KEY_PREFIX)) return null;
  const row = await findActiveApiKey(ctx.db, await sha256Hex(key));
  if (!row) return null;
  const counter = ctx.env.THROTTLE.get(ctx.env.THROTTLE.idFromName(`api-key:${row.id}`));
  const decision = await counter.countInWindow(API_KEY_REQUESTS_PER_MINUTE, MINUTE_MS, ctx.now);
  if (!decision.allowed) {
    throw tooManyRequests(
      "Too many requests for this API key",
      Math.max(1, Math.ceil(decision.retryAfterMs / 1000)),
    );
  }
  if (row.lastUsedAt === null || ctx.now - row.lastUsedAt >= TOUCH_AFTER_MS)
    await touchApiKey(ctx.db, row.id, ctx.now);
  return keyCaller(row);
}

/** Every change made with a write key is recorded with the key, method, path and status. */
export async function auditApiKeyWrite(
  ctx: ServiceContext,
  caller: CurrentUser,
  request: { method: string; path: string; status: number },
): Promise<void> {
  if (!caller.apiKey || caller.orgId === null) return;
  await auditEntry(ctx, {
    orgId: caller.orgId,
    actorId: caller.id,
    actorEmail: caller.email,
    action: "api_key.write",
    targetType: "api_key",
    targetId: caller.apiKey.id,
    details: request,
  });
}
