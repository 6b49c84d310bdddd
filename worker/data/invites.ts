import { and, desc, eq, exists, gt, isNull, lt, notInArray, or, type SQL, sql } from "drizzle-orm";
import type { Role } from "../../schema/roles";
import { type InviteRow, invites, users } from "../../schema/tables";
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

/** Revokes a pending invite: one conditional write, so an invite accepted meanwhile stays accepted (0 rows). */
export const deletePendingOrgInvite = (db: Db, orgId: string, inviteId: string) =>
  db
    .delete(invites)
    .where(and(eq(invites.orgId, orgId), eq(invites.id, inviteId), isNull(invites.acceptedAt)));

/** After a batch's revoke: whether the invite is gone (the revoke happened). */
export const inviteGone = (inviteId: string) =>
  sql`not exists (select 1 from ${invites} where ${invites.id} = ${inviteId})`;

/**
 * Ends the pending invites a member sent: all of them (removal), or those for roles outside
 * `keepRoles` (a role change leaves them unable to send those).
 */
export const deletePendingInvitesSentBy = (
  db: Db,
  orgId: string,
  senderId: string,
  keepRoles: readonly Role[],
  options: { onlyIf?: SQL } = {},
) =>
  db
    .delete(invites)
    .where(
      and(
        eq(invites.orgId, orgId),
        eq(invites.invitedBy, senderId),
        isNull(invites.acceptedAt),
        keepRoles.length > 0 ? notInArray(invites.role, [...keepRoles]) : undefined,
        options.onlyIf,
      ),
    );

/**
 * Marks an invite used only if it still is unused: a second, concurrent acceptance or a revoke
 * that deleted it first leaves no row, and the guarded writes batched after it do nothing.
 */
export const markInviteAccepted = (db: Db, inviteId: string, now: number) =>
  db
    .update(invites)
    .set({ acceptedAt: now })
    .where(and(eq(invites.id, inviteId), isNull(invites.acceptedAt)));

export const deleteExpiredInvites = (db: Db, before: number) =>
  db.delete(invites).where(and(isNull(invites.acceptedAt), lt(invites.expiresAt, before)));

/** The accepted invite this request marked (in the same batch, just before). */
const acceptedNow = (db: Db, inviteId: string, now: number) =>
  exists(
    db
      .select({ id: invites.id })
      .from(invites)
      .where(and(eq(invites.id, inviteId), eq(invites.acceptedAt, now))),
  );

/**
 * Creates the invited user only if this request's acceptance went through. Columns in the table's
 * order; the address counts as verified, since the invite's link was sent to it.
 */
export const insertUserFromInvite = (
  db: Db,
  inviteId: string,
  now: number,
  user: Omit<typeof users.$inferInsert, "orgId" | "role" | "permissions" | "emailVerifiedAt">,
) =>
  db
    .insert(users)
    .select(
      sql`select ${user.id}, ${user.email}, ${user.fullName}, ${user.passwordHash}, ${user.passwordSalt}, ${user.passwordIterations}, ${invites.orgId}, ${invites.role}, ${invites.permissions}, ${user.createdAt}, ${now}, null from ${invites} where ${invites.id} = ${inviteId} and ${invites.acceptedAt} = ${now}`,
    );

/**
 * Moves a user into the invite's organisation, only if this request's acceptance went through:
 * a user without an organisation, or one whose address was never verified (their earlier
 * membership ends). The invite's link was sent to the address, so it counts as verified.
 */
export const joinOrgThroughInvite = (db: Db, userId: string, invite: InviteRow, now: number) =>
  db
    .update(users)
    .set({
      orgId: invite.orgId,
      role: invite.role,
      permissions: invite.permissions,
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})`,
      verificationRemindedAt: null,
    })
    .where(
      and(
        eq(users.id, userId),
        or(isNull(users.orgId), isNull(users.emailVerifiedAt)),
        acceptedNow(db, invite.id, now),
      ),
    );

/**
 * Registration through an invite to an address a never-verified account holds: the account is
 * taken over (the new name and password), moved into the invite's organisation and verified,
 * only if this request's acceptance went through and it is still never verified.
 */
export const takeOverThroughInvite = (
  db: Db,
  userId: string,
  invite: InviteRow,
  now: number,
  account: Pick<
    typeof users.$inferInsert,
    "fullName" | "passwordHash" | "passwordSalt" | "passwordIterations"
  >,
) =>
  db
    .update(users)
    .set({
      ...account,
      orgId: invite.orgId,
      role: invite.role,
      permissions: invite.permissions,
      emailVerifiedAt: now,
      verificationRemindedAt: null,
    })
    .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt), acceptedNow(db, invite.id, now)));
