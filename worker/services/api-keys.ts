import {
  API_KEY_DEFAULT_TTL_DAYS,
  type ApiKey,
  type ApiKeyPermission,
  type ApiKeyScope,
  apiKeyPermissions,
  type CreateApiKeyInput,
  type CreatedApiKey,
} from "../../schema/api/api-keys";
import { type Actor, can, type MemberPermission, roleActions } from "../../schema/roles";
import type { ApiKeyRow } from "../../schema/tables";
import {
  type ApiKeyCondition,
  findActiveApiKey,
  findOrgApiKey,
  insertApiKey,
  listApiKeys,
  revokeApiKeyRow,
  revokeCreatorApiKeys,
  touchApiKey,
} from "../data/api-keys";
import type { OrgVersions } from "../data/fleet-directory";
import { runBatch } from "../lib/db";
import { forbidden, invalidField, notFound, tooManyRequests } from "../lib/errors";
import { newId, randomToken, sha256Hex } from "../lib/ids";
import { auditEntry } from "./audit";
import { authorizeOrgAction } from "./authorization";
import type { CurrentUser, OrgContext, ServiceContext, UserContext } from "./context";
import { requireVerifiedEmail } from "./email-verification";

export const API_KEY_PREFIX = "sfk_";
/** Requests a key may make per minute; a Durable Object per key counts them. */
export const API_KEY_REQUESTS_PER_MINUTE = 120;
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Last-used moves forward at most once a minute: one write a minute per busy key. */
const TOUCH_AFTER_MS = MINUTE_MS;

const isKeyArea = (area: MemberPermission): area is ApiKeyPermission =>
  (apiKeyPermissions as readonly MemberPermission[]).includes(area);

/** The areas a key grants as stored; keys made before keys had areas grant every area of their scope. */
const grantedAreas = (key: {
  scope: ApiKeyScope;
  permissions: MemberPermission[] | null;
}): ApiKeyPermission[] => {
  if (key.permissions !== null) return key.permissions.filter(isKeyArea);
  return key.scope === "write" ? [...apiKeyPermissions] : [];
};

/**
 * The key areas a member may hand to a key and a key of theirs may use: every one for an owner
 * or an engineer not narrowed, those they hold for a narrowed engineer, none for a role without keys.
 */
export function heldKeyAreas(actor: Actor): ApiKeyPermission[] {
  if (!roleActions[actor.role].has("apiKeys:manageOwn")) return [];
  const held = actor.role === "orgOwner" ? null : actor.permissions;
  return apiKeyPermissions.filter((area) => held === null || held.includes(area));
}

const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  permissions: grantedAreas(row),
  prefix: row.prefix,
  createdBy: row.createdBy,
  createdAt: new Date(row.createdAt).toISOString(),
  lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt).toISOString(),
  expiresAt: new Date(row.expiresAt ?? row.createdAt + API_KEY_DEFAULT_TTL_DAYS * DAY_MS).toISOString(),
});

/**
 * The areas a new key grants: none for a read key; for a write key the areas asked for (the
 * creator's own when none are named), each of which the creator must hold.
 */
function newKeyAreas(creator: Actor, input: CreateApiKeyInput): ApiKeyPermission[] {
  if (input.scope === "read") {
    if (input.permissions)
      throw invalidField("permissions", "A read key changes nothing: leave its areas out");
    return [];
  }
  const held = heldKeyAreas(creator);
  const asked = input.permissions ?? held;
  const beyond = asked.filter((area) => !held.includes(area));
  if (beyond.length > 0) {
    throw forbidden(
      "api_key_permissions",
      `A key cannot grant what you do not hold yourself: ${beyond.join(", ")}`,
    );
  }
  if (asked.length === 0) {
    throw forbidden(
      "api_key_permissions",
      "A write key needs an area you hold: credentials, sites or portfolios",
    );
  }
  return apiKeyPermissions.filter((area) => asked.includes(area));
}

/** Creates a key; the answer is the only place the key itself ever appears. */
export async function createApiKey(ctx: UserContext, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const org = authorizeOrgAction(ctx, "apiKeys:manageOwn");
  await requireVerifiedEmail(org);
  const permissions = newKeyAreas(org.user, input);
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
    permissions,
    expiresAt: org.now + (input.expiresInDays ?? API_KEY_DEFAULT_TTL_DAYS) * DAY_MS,
  };
  const created = toApiKey(row);
  await runBatch(org.db, [
    insertApiKey(org.db, row),
    auditEntry(org, {
      orgId: org.user.orgId,
      actorId: org.user.id,
      actorEmail: org.user.email,
      action: "api_key.create",
      targetType: "api_key",
      targetId: row.id,
      details: { name: row.name, scope: row.scope, permissions, expiresAt: created.expiresAt },
    }),
  ]);
  return { ...created, key };
}

/** Every key of the organisation for an owner or a holder of the keys area; one's own keys otherwise. */
export async function listOrgApiKeys(ctx: UserContext): Promise<ApiKey[]> {
  const org = authorizeOrgAction(ctx, "apiKeys:manageOwn");
  const createdBy = can(org.user, "apiKeys:manage") ? null : org.user.id;
  return (await listApiKeys(org.db, org.user.orgId, createdBy)).map(toApiKey);
}

/**
 * Revokes a key of the caller's organisation; the next request with it answers 401. A member
 * without the keys area revokes only the keys they created.
 */
export async function revokeApiKey(ctx: UserContext, keyId: string): Promise<void> {
  const org = authorizeOrgAction(ctx, "apiKeys:manageOwn");
  const key = await findOrgApiKey(org.db, org.user.orgId, keyId);
  if (!key) throw notFound("api_key", "API key");
  if (key.createdBy !== org.user.id && !can(org.user, "apiKeys:manage"))
    throw forbidden("revoke_api_key", "You can revoke only the API keys you created");
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

/**
 * The revocation, batched with a member change, of the member's keys that grant more than they
 * now hold: all of them when they leave (`standing` null) or take a role that holds no keys.
 * Revoked rather than narrowed: a script loses its key at once and visibly, never piece by piece.
 */
export function revokeKeysBeyond(
  ctx: OrgContext,
  memberId: string,
  standing: Actor | null,
  onlyIf?: ApiKeyCondition,
) {
  const keep =
    standing === null || !roleActions[standing.role].has("apiKeys:manageOwn") ? null : heldKeyAreas(standing);
  return revokeCreatorApiKeys(ctx.db, ctx.user.orgId, memberId, ctx.now, keep, { onlyIf });
}

/** Audits the keys a member change revoked, naming the change. */
export async function auditKeysRevokedWith(
  ctx: OrgContext,
  revoked: { id: string; name: string }[],
  because: "member.remove" | "member.role_change" | "member.permissions_change",
): Promise<void> {
  if (revoked.length === 0) return;
  await runBatch(
    ctx.db,
    revoked.map((key) =>
      auditEntry(ctx, {
        orgId: ctx.user.orgId,
        actorId: ctx.user.id,
        actorEmail: ctx.user.email,
        action: "api_key.revoke",
        targetType: "api_key",
        targetId: key.id,
        details: { name: key.name, because },
      }),
    ),
  );
}

/**
 * The member an API key acts as: its organisation, a role bounded by the key's scope, and the
 * areas the key grants that its creator still holds.
 */
function keyCaller(key: NonNullable<Awaited<ReturnType<typeof findActiveApiKey>>>): CurrentUser {
  const held = heldKeyAreas({ role: key.creatorRole, permissions: key.creatorPermissions });
  return {
    id: `apikey:${key.id}`,
    email: `api-key:${key.name}`,
    fullName: key.name,
    role: key.scope === "write" ? "orgEngineer" : "user",
    orgId: key.orgId,
    orgName: key.orgName,
    permissions: grantedAreas(key).filter((area) => held.includes(area)),
    apiKey: { id: key.id, scope: key.scope },
  };
}

/**
 * The caller a presented key stands for, with D1's counters for its organisation read with the
 * key (see OrgVersions), or null when it is unknown, revoked, expired or its creator no longer
 * holds keys in its organisation; 429 over its rate.
 */
export async function authenticateApiKey(
  ctx: ServiceContext,
  key: string,
): Promise<{ caller: CurrentUser; orgVersions: OrgVersions } | null> {
  if (!key.startsWith(API_KEY_PREFIX)) return null;
  const row = await findActiveApiKey(ctx.db, await sha256Hex(key), ctx.now);
  // A creator whose role holds no keys (demoted to user) leaves the key nothing to act for.
  if (!row || !roleActions[row.creatorRole].has("apiKeys:manageOwn")) return null;
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
  return { caller: keyCaller(row), orgVersions: row.orgVersions };
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
