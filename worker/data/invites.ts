import { and, desc, eq, gt, isNull, lt } from "drizzle-orm";
import { invites } from "../../schema/tables";
import type { Db } from "../lib/db";

export const insertInvite = (db: Db, invite: typeof invites.$inferInsert) =>
  db.insert(invites).values(invite);

export const findInviteByTokenHash = (db: Db, tokenHash: string) =>
  db.query.invites.findFirst({ where: eq(invites.tokenHash, tokenHash) });

export const listPendingInvites = (db: Db, orgId: string, now: number) =>
  db
    .select()
    .from(invites)
    .where(and(eq(invites.orgId, orgId), isNull(invites.acceptedAt), gt(invites.expiresAt, now)))
    .orderBy(desc(invites.createdAt));

export const findPendingInviteForEmail = (db: Db, orgId: string, email: string, now: number) =>
  db.query.invites.findFirst({
    where: and(
      eq(invites.orgId, orgId),
      eq(invites.email, email),
      isNull(invites.acceptedAt),
      gt(invites.expiresAt, now),
    ),
  });

export const findOrgInvite = (db: Db, orgId: string, inviteId: string) =>
  db.query.invites.findFirst({ where: and(eq(invites.orgId, orgId), eq(invites.id, inviteId)) });

export const deleteOrgInvite = (db: Db, orgId: string, inviteId: string) =>
  db.delete(invites).where(and(eq(invites.orgId, orgId), eq(invites.id, inviteId)));

/**
 * Marks an invite used only if it still is unused: a second, concurrent acceptance updates
 * no row, and the batch it belongs to is rejected by the caller's guard.
 */
export const markInviteAccepted = (db: Db, inviteId: string, now: number) =>
  db
    .update(invites)
    .set({ acceptedAt: now })
    .where(and(eq(invites.id, inviteId), isNull(invites.acceptedAt)));

export const deleteExpiredInvites = (db: Db, before: number) =>
  db.delete(invites).where(and(isNull(invites.acceptedAt), lt(invites.expiresAt, before)));
