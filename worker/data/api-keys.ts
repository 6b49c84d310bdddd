import { and, desc, eq, isNull } from "drizzle-orm";
import { apiKeys, organizations } from "../../schema/tables";
import type { Db } from "../lib/db";

export const insertApiKey = (db: Db, row: typeof apiKeys.$inferInsert) => db.insert(apiKeys).values(row);

/** The organisation's keys that are not revoked, newest first. */
export const listApiKeys = (db: Db, orgId: string) =>
  db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.orgId, orgId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));

/** The key with that hash if it is not revoked, with its organisation's name. */
export async function findActiveApiKey(db: Db, keyHash: string) {
  const rows = await db
    .select({
      id: apiKeys.id,
      orgId: apiKeys.orgId,
      name: apiKeys.name,
      scope: apiKeys.scope,
      lastUsedAt: apiKeys.lastUsedAt,
      orgName: organizations.name,
    })
    .from(apiKeys)
    .innerJoin(organizations, eq(organizations.id, apiKeys.orgId))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return rows[0];
}

export const revokeApiKeyRow = (db: Db, orgId: string, keyId: string, now: number) =>
  db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.orgId, orgId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, name: apiKeys.name });

export const touchApiKey = (db: Db, keyId: string, now: number) =>
  db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, keyId));
