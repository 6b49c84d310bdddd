import { and, desc, eq, gt, lt, sql } from "drizzle-orm";
import { emailVerifications } from "../../schema/tables";
import type { Db } from "../lib/db";

export type EmailVerificationRow = typeof emailVerifications.$inferSelect;

export const insertEmailVerification = (db: Db, row: EmailVerificationRow) =>
  db.insert(emailVerifications).values(row);

/**
 * Inserts a "send again" link only while the user is under both limits: none sent in the last
 * `minGapMs`, fewer than `maxInWindow` in the last `windowMs`. One statement, so two clicks at
 * once cannot both pass (0 rows when refused).
 */
export const insertEmailVerificationWithin = (
  db: Db,
  row: EmailVerificationRow,
  limits: { minGapMs: number; windowMs: number; maxInWindow: number },
) =>
  db.insert(emailVerifications).select(
    sql`select ${row.tokenHash}, ${row.userId}, ${row.createdAt}, ${row.expiresAt}
        where not exists (select 1 from ${emailVerifications} where ${emailVerifications.userId} = ${row.userId} and ${emailVerifications.createdAt} > ${row.createdAt - limits.minGapMs})
          and (select count(*) from ${emailVerifications} where ${emailVerifications.userId} = ${row.userId} and ${emailVerifications.createdAt} > ${row.createdAt - limits.windowMs}) < ${limits.maxInWindow}`,
  );

/** The user's links sent since `since`, newest first: what "send again" is counted against. */
export const listRecentEmailVerifications = (db: Db, userId: string, since: number) =>
  db
    .select({ createdAt: emailVerifications.createdAt })
    .from(emailVerifications)
    .where(and(eq(emailVerifications.userId, userId), gt(emailVerifications.createdAt, since)))
    .orderBy(desc(emailVerifications.createdAt));

/**
 * Deletes the link if it is still usable, answering its user: the one statement that makes a
 * link single-use, even when two clicks race.
 */
export const consumeEmailVerification = (db: Db, tokenHash: string, now: number) =>
  db
    .delete(emailVerifications)
    .where(and(eq(emailVerifications.tokenHash, tokenHash), gt(emailVerifications.expiresAt, now)))
    .returning({ userId: emailVerifications.userId });

/** Once the address is proven, every other link sent to it stops working too. */
export const deleteUserEmailVerifications = (db: Db, userId: string) =>
  db.delete(emailVerifications).where(eq(emailVerifications.userId, userId));

export const deleteExpiredEmailVerifications = (db: Db, now: number) =>
  db.delete(emailVerifications).where(lt(emailVerifications.expiresAt, now));
