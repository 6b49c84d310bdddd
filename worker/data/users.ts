import { and, asc, eq, isNull, lte, ne, or, type SQL, sql } from "drizzle-orm";
import type { MemberPermission, Role } from "../../schema/roles";
import { monitoringSystems, organizations, users } from "../../schema/tables";
import type { Db } from "../lib/db";

export const insertUser = (db: Db, user: typeof users.$inferInsert) => db.insert(users).values(user);

export const findUserByEmail = (db: Db, email: string) =>
  db.query.users.findFirst({ where: eq(users.email, email) });

export const findUserById = (db: Db, userId: string) =>
  db.query.users.findFirst({ where: eq(users.id, userId) });

export const updatePassword = (
  db: Db,
  userId: string,
  password: { hash: string; salt: string; iterations: number },
) =>
  db
    .update(users)
    .set({
      passwordHash: password.hash,
      passwordSalt: password.salt,
      passwordIterations: password.iterations,
    })
    .where(eq(users.id, userId));

/** After a batch's guarded insert: whether the user row exists (the insert happened). */
export const userExists = (userId: string): SQL =>
  sql`exists (select 1 from ${users} where ${users.id} = ${userId})`;

/** After a batch's guarded removal: whether the user row is gone (the removal happened). */
export const userGone = (userId: string): SQL =>
  sql`not exists (select 1 from ${users} where ${users.id} = ${userId})`;

/** After a batch's guarded join: whether the user now belongs to the organisation. */
export const userInOrg = (userId: string, orgId: string): SQL =>
  sql`exists (select 1 from ${users} where ${users.id} = ${userId} and ${users.orgId} = ${orgId})`;

/** The user with their organisation's name: what every authenticated request re-reads. */
export async function findUserWithOrg(db: Db, userId: string) {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      role: users.role,
      orgId: users.orgId,
      permissions: users.permissions,
      orgName: organizations.name,
      emailVerifiedAt: users.emailVerifiedAt,
    })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.orgId))
    .where(eq(users.id, userId))
    .limit(1);
  return rows[0];
}

export const listOrgMembers = (db: Db, orgId: string) =>
  db.select().from(users).where(eq(users.orgId, orgId)).orderBy(asc(users.createdAt), asc(users.email));

export const findOrgMember = (db: Db, orgId: string, userId: string) =>
  db.query.users.findFirst({ where: and(eq(users.orgId, orgId), eq(users.id, userId)) });

export async function countOrgOwners(db: Db, orgId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)` })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.role, "orgOwner")));
  return row?.count ?? 0;
}

/**
 * Holds for a member who is not their organisation's last orgOwner. Part of the write itself,
 * so two owners demoting or removing each other at once cannot leave the organisation without one.
 */
const notLastOwner = (orgId: string, userId: string) =>
  or(
    ne(users.role, "orgOwner"),
    sql`exists (select 1 from ${users} as other where other.org_id = ${orgId} and other.role = 'orgOwner' and other.id <> ${userId})`,
  );

/** Changes a member's role unless that would leave the organisation without an owner (0 rows). */
export const updateMemberRole = (db: Db, orgId: string, userId: string, role: Role) =>
  db
    .update(users)
    // An owner is never narrowed by member permissions.
    .set(role === "orgOwner" ? { role, permissions: null } : { role })
    .where(
      and(
        eq(users.orgId, orgId),
        eq(users.id, userId),
        role === "orgOwner" ? undefined : notLastOwner(orgId, userId),
      ),
    );

/** After a batch's role change: whether the member now holds the role (the change happened). */
export const memberHoldsRole = (orgId: string, userId: string, role: Role): SQL =>
  sql`exists (select 1 from ${users} where ${users.id} = ${userId} and ${users.orgId} = ${orgId} and ${users.role} = ${role})`;

/** After a batch's removal: whether the user is no longer in the organisation (the removal happened). */
export const userOutsideOrg = (orgId: string, userId: string): SQL =>
  sql`not exists (select 1 from ${users} where ${users.id} = ${userId} and ${users.orgId} = ${orgId})`;

export const updateMemberPermissions = (
  db: Db,
  orgId: string,
  userId: string,
  permissions: MemberPermission[] | null,
) =>
  db
    .update(users)
    .set({ permissions })
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)));

/**
 * Removal keeps the account: the user can sign in again and start or join another organisation.
 * Like a role change, it never removes the last owner (0 rows).
 */
export const detachMember = (db: Db, orgId: string, userId: string) =>
  db
    .update(users)
    .set({ orgId: null, role: "user", permissions: null })
    .where(and(eq(users.orgId, orgId), eq(users.id, userId), notLastOwner(orgId, userId)));

export const attachUserToOrg = (
  db: Db,
  userId: string,
  orgId: string,
  role: Role,
  permissions: MemberPermission[] | null,
) => db.update(users).set({ orgId, role, permissions }).where(eq(users.id, userId));

/** Records that the address is proven; an account proven before keeps its first time. */
export const markEmailVerified = (db: Db, userId: string, now: number) =>
  db
    .update(users)
    .set({ emailVerifiedAt: now, verificationRemindedAt: null })
    .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));

/** Never-verified accounts created before `createdBefore` that were not reminded yet, oldest first. */
export const listUnverifiedToRemind = (db: Db, createdBefore: number, limit: number) =>
  db
    .select({ id: users.id, email: users.email, orgId: users.orgId, createdAt: users.createdAt })
    .from(users)
    .where(
      and(
        isNull(users.emailVerifiedAt),
        lte(users.createdAt, createdBefore),
        isNull(users.verificationRemindedAt),
      ),
    )
    .orderBy(asc(users.createdAt))
    .limit(limit);

/** Marks the reminder sent, unless the account was verified (or reminded) meanwhile (0 rows). */
export const markVerificationReminded = (db: Db, userId: string, now: number) =>
  db
    .update(users)
    .set({ verificationRemindedAt: now })
    .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt), isNull(users.verificationRemindedAt)));

/**
 * Never-verified accounts created before `createdBefore` and reminded before `remindedBefore`,
 * oldest first, with whether their organisation holds monitoring systems (its fleet store then
 * has a directory to empty).
 */
export const listUnverifiedToRemove = (
  db: Db,
  createdBefore: number,
  remindedBefore: number,
  limit: number,
) =>
  db
    .select({
      id: users.id,
      email: users.email,
      orgId: users.orgId,
      orgHasSystems: sql<number>`exists (select 1 from ${monitoringSystems} where ${monitoringSystems.orgId} = ${users.orgId})`,
    })
    .from(users)
    .where(
      and(
        isNull(users.emailVerifiedAt),
        lte(users.createdAt, createdBefore),
        lte(users.verificationRemindedAt, remindedBefore),
      ),
    )
    .orderBy(asc(users.createdAt))
    .limit(limit);

/** Removes an account only while it is still never verified (0 rows if it was verified meanwhile). */
export const deleteUnverifiedUser = (db: Db, userId: string) =>
  db.delete(users).where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
