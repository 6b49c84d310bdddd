import { and, asc, desc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import { emailOutbox } from "../../schema/tables";
import type { Db } from "../lib/db";

export type OutboxInsert = typeof emailOutbox.$inferInsert;
export type OutboxRow = typeof emailOutbox.$inferSelect;

/** Queues a mail; a digest or report of a period the user already has is skipped (unique index). */
export const insertOutboxMail = (db: Db, row: OutboxInsert) =>
  db.insert(emailOutbox).values(row).onConflictDoNothing();

/** Unsent mail whose next attempt is due, oldest first. */
export const listDueMail = (db: Db, now: number, limit: number) =>
  db
    .select()
    .from(emailOutbox)
    .where(and(isNull(emailOutbox.sentAt), lte(emailOutbox.nextAttemptAt, now)))
    .orderBy(asc(emailOutbox.nextAttemptAt))
    .limit(limit);

export const findOutboxMail = (db: Db, ids: string[]) =>
  db.select().from(emailOutbox).where(inArray(emailOutbox.id, ids));

export const markMailSent = (db: Db, id: string, now: number) =>
  db
    .update(emailOutbox)
    .set({ sentAt: now, attempts: sql`${emailOutbox.attempts} + 1`, nextAttemptAt: null, lastError: null })
    .where(and(eq(emailOutbox.id, id), isNull(emailOutbox.sentAt)));

export const markMailFailed = (db: Db, id: string, error: string, nextAttemptAt: number) =>
  db
    .update(emailOutbox)
    .set({ attempts: sql`${emailOutbox.attempts} + 1`, lastError: error, nextAttemptAt })
    .where(and(eq(emailOutbox.id, id), isNull(emailOutbox.sentAt)));

/** When the user last got a mail of this kind (queued counts: it will be sent). */
export async function lastMailAt(db: Db, userId: string, kind: string): Promise<number | null> {
  const rows = await db
    .select({ createdAt: emailOutbox.createdAt })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.userId, userId), eq(emailOutbox.kind, kind)))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(1);
  return rows[0]?.createdAt ?? null;
}

/**
 * Removes up to `maxRows` mails sent before `sentBefore`, oldest first (served by
 * email_outbox_due_idx); unsent mail, still being retried, always stays. Answers how many.
 */
export async function deleteSentMailBefore(db: Db, sentBefore: number, maxRows: number): Promise<number> {
  const result = await db.$client
    .prepare(
      `DELETE FROM email_outbox WHERE id IN (
         SELECT id FROM email_outbox WHERE sent_at < ? ORDER BY sent_at LIMIT ?)`,
    )
    .bind(sentBefore, maxRows)
    .run();
  return result.meta.changes;
}
