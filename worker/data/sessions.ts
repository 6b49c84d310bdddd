import { and, desc, eq, gt, lt, ne, type SQL, sql } from "drizzle-orm";
import { organizations, type SessionRow, sessions, users } from "../../schema/tables";
import type { Db } from "../lib/db";
import { orgVersionColumns } from "./fleet-directory";

export const insertSession = (db: Db, session: typeof sessions.$inferInsert) =>
  db.insert(sessions).values(session);

/** The same insert, made only if `condition` holds when it runs (after a guarded change in one batch). */
export const insertSessionIf = (db: Db, session: SessionRow, condition: SQL) =>
  db
    .insert(sessions)
    .select(
      sql`select ${session.id}, ${session.userId}, ${session.device}, ${session.ip}, ${session.createdAt}, ${session.lastSeenAt}, ${session.expiresAt} where ${condition}`,
    );

/**
 * The session with its user, the user's organisation name and D1's counters for the organisation
 * (what its fleet store checks its read models against), unless it has expired or was last seen
 * before `idleSince`: what every authenticated request reads.
 */
export async function findActiveSessionUser(db: Db, sessionId: string, now: number, idleSince: number) {
  const rows = await db
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      role: users.role,
      orgId: users.orgId,
      permissions: users.permissions,
      orgName: organizations.name,
      orgVersions: orgVersionColumns(users.orgId),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(organizations, eq(organizations.id, users.orgId))
    .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, now), gt(sessions.lastSeenAt, idleSince)))
    .limit(1);
  return rows[0];
}

/** Moves last-seen forward only when it is older than `staleBefore`: one write a minute at most. */
export const touchSession = (db: Db, sessionId: string, now: number, staleBefore: number) =>
  db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, staleBefore)));

export const listActiveSessions = (db: Db, userId: string, now: number, idleSince: number) =>
  db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now), gt(sessions.lastSeenAt, idleSince)))
    .orderBy(desc(sessions.lastSeenAt));

export const deleteSession = (db: Db, userId: string, sessionId: string) =>
  db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId)))
    .returning({ id: sessions.id });

/**
 * Ends every session of the user except `keepSessionId` (all of them when null), only if
 * `onlyIf` holds when it runs; answers the ended ids.
 */
export const deleteUserSessions = (
  db: Db,
  userId: string,
  keepSessionId: string | null,
  options: { onlyIf?: SQL } = {},
) =>
  db
    .delete(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        keepSessionId === null ? undefined : ne(sessions.id, keepSessionId),
        options.onlyIf,
      ),
    )
    .returning({ id: sessions.id });

export const deleteExpiredSessions = (db: Db, now: number) =>
  db.delete(sessions).where(lt(sessions.expiresAt, now));
