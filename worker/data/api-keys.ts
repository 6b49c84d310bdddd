import { and, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import { API_KEY_DEFAULT_TTL_DAYS, apiKeyPermissions } from "../../schema/api/api-keys";
import { apiKeys, organizations, users } from "../../schema/tables";
import type { Db } from "../lib/db";
import { orgVersionColumns } from "./fleet-directory";

/** A condition checked when a batched revocation runs (a guarded member change before it). */
export type ApiKeyCondition = SQL;

const DAY_MS = 24 * 60 * 60 * 1000;

export const insertApiKey = (db: Db, row: typeof apiKeys.$inferInsert) => db.insert(apiKeys).values(row);

/** The organisation's keys that are not revoked, newest first; only `createdBy`'s when given. */
export const listApiKeys = (db: Db, orgId: string, createdBy: string | null = null) =>
  db
    .select()
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.orgId, orgId),
        isNull(apiKeys.revokedAt),
        createdBy === null ? undefined : eq(apiKeys.createdBy, createdBy),
      ),
    )
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));

/** When a key stops working: its own expiry, or a year after it was made for keys older than expiries. */
export const keyExpiresAt = sql<number>`coalesce(${apiKeys.expiresAt}, ${apiKeys.createdAt} + ${API_KEY_DEFAULT_TTL_DAYS * DAY_MS})`;

/**
 * The key with that hash if it is neither revoked nor expired and its creator is still a member of
 * its organisation, with the organisation's name and the creator's role and permissions (a key
 * never does more than its creator may).
 */
export async function findActiveApiKey(db: Db, keyHash: string, now: number) {
  const rows = await db
    .select({
      id: apiKeys.id,
      orgId: apiKeys.orgId,
      name: apiKeys.name,
      scope: apiKeys.scope,
      permissions: apiKeys.permissions,
      lastUsedAt: apiKeys.lastUsedAt,
      orgName: organizations.name,
      creatorRole: users.role,
      creatorPermissions: users.permissions,
      orgVersions: orgVersionColumns(apiKeys.orgId),
    })
    .from(apiKeys)
    .innerJoin(organizations, eq(organizations.id, apiKeys.orgId))
    .innerJoin(users, and(eq(users.id, apiKeys.createdBy), eq(users.orgId, apiKeys.orgId)))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt), sql`${keyExpiresAt} > ${now}`))
    .limit(1);
  return rows[0];
}

/** One key of the organisation that is not revoked. */
export async function findOrgApiKey(db: Db, orgId: string, keyId: string) {
  const rows = await db
    .select({ id: apiKeys.id, name: apiKeys.name, createdBy: apiKeys.createdBy })
    .from(apiKeys)
    .where(and(eq(apiKeys.orgId, orgId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .limit(1);
  return rows[0];
}

export const revokeApiKeyRow = (db: Db, orgId: string, keyId: string, now: number) =>
  db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.orgId, orgId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, name: apiKeys.name });

/** Whether a write key grants an area outside `areas` (keys older than areas grant every key area). */
const grantsBeyond = (areas: readonly string[]): SQL => {
  const granted = sql`json_each(coalesce(${apiKeys.permissions}, ${JSON.stringify(apiKeyPermissions)}))`;
  const outside =
    areas.length === 0
      ? sql`exists (select 1 from ${granted})`
      : sql`exists (select 1 from ${granted} where value not in (${sql.join(
          areas.map((area) => sql`${area}`),
          sql`, `,
        )}))`;
  return sql`(${apiKeys.scope} = 'write' and ${outside})`;
};

/**
 * Revokes the keys a member created that grant more than `keepAreas` (every key of theirs when
 * null), only if `onlyIf` holds when it runs; answers the revoked keys.
 */
export const revokeCreatorApiKeys = (
  db: Db,
  orgId: string,
  createdBy: string,
  now: number,
  keepAreas: readonly string[] | null,
  options: { onlyIf?: SQL } = {},
) =>
  db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(
      and(
        eq(apiKeys.orgId, orgId),
        eq(apiKeys.createdBy, createdBy),
        isNull(apiKeys.revokedAt),
        keepAreas === null ? undefined : grantsBeyond(keepAreas),
        options.onlyIf,
      ),
    )
    .returning({ id: apiKeys.id, name: apiKeys.name });

export const touchApiKey = (db: Db, keyId: string, now: number) =>
  db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, keyId));
