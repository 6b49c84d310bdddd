import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { passwordResets } from "../../schema/tables";
import type { Db } from "../lib/db";

export const insertPasswordReset = (db: Db, row: typeof passwordResets.$inferInsert) =>
  db.insert(passwordResets).values(row);

/** Earlier unused links of the user stop working when a new one is sent. */
export const expireUserResets = (db: Db, userId: string, now: number) =>
  db
    .update(passwordResets)
    .set({ expiresAt: now })
    .where(
      and(
        eq(passwordResets.userId, userId),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      ),
    );

/**
 * Marks the link used if it is still usable, answering its user: the one statement that makes
 * a token single-use, even when two confirmations race.
 */
export const consumePasswordReset = (db: Db, tokenHash: string, now: number) =>
  db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResets.tokenHash, tokenHash),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      ),
    )
    .returning({ userId: passwordResets.userId });

export const deleteStaleResets = (db: Db, now: number) =>
  db.delete(passwordResets).where(lt(passwordResets.expiresAt, now - 24 * 60 * 60_000));
