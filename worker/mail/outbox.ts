import {
  findOutboxMail,
  insertOutboxMail,
  listDueMail,
  markMailFailed,
  markMailSent,
  type OutboxRow,
} from "../data/email-outbox";
import type { Env } from "../env";
import type { Db } from "../lib/db";
import { newId } from "../lib/ids";
import { type MailAttachment, type OutgoingMail, sendMail } from "./mailer";

/** Waits between attempts: 1, 5, 15, 60 minutes, then every 6 hours; the mail is never dropped. */
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000];
const SLOW_RETRY_MS = 6 * 60 * 60_000;
export const retryDelayMs = (attempts: number) => RETRY_DELAYS_MS[attempts] ?? SLOW_RETRY_MS;

export interface QueuedMail extends OutgoingMail {
  kind: string;
  orgId: string | null;
  userId: string | null;
  /** The week or month a digest or report covers: a second mail of the same period is not queued. */
  period?: string;
}

/** The outbox insert for one mail (batched with the change it reports); send it with `deliverMail`. */
export function queueMail(db: Db, mail: QueuedMail, now: number) {
  const id = newId();
  return {
    id,
    insert: insertOutboxMail(db, {
      id,
      orgId: mail.orgId,
      userId: mail.userId,
      kind: mail.kind,
      toEmail: mail.to.join(","),
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      attachments: mail.attachments && mail.attachments.length > 0 ? JSON.stringify(mail.attachments) : null,
      createdAt: now,
      nextAttemptAt: now,
      period: mail.period ?? null,
    }),
  };
}

async function attempt(env: Env, db: Db, row: OutboxRow, now: number): Promise<boolean> {
  const outcome = await sendMail(
    env,
    {
      to: row.toEmail.split(","),
      subject: row.subject,
      html: row.html,
      text: row.text,
      attachments: row.attachments ? (JSON.parse(row.attachments) as MailAttachment[]) : undefined,
    },
    row.id,
  );
  if (outcome.ok) {
    await markMailSent(db, row.id, now);
    return true;
  }
  console.warn(JSON.stringify({ msg: "mail send failed", id: row.id, kind: row.kind, error: outcome.error }));
  await markMailFailed(db, row.id, outcome.error, now + retryDelayMs(row.attempts));
  return false;
}

/** Sends the given queued mails now; a failure stays in the outbox for the cron to retry. */
export async function deliverMail(env: Env, db: Db, ids: string[], now: number): Promise<void> {
  if (ids.length === 0) return;
  for (const row of await findOutboxMail(db, ids)) {
    if (row.sentAt === null) await attempt(env, db, row, now);
  }
}

/** The cron's pass over the outbox: every unsent mail whose next attempt is due. */
export async function deliverDueMail({ env, db, now }: { env: Env; db: Db; now: number }) {
  let sent = 0;
  let failed = 0;
  for (const row of await listDueMail(db, now, 100)) {
    if (await attempt(env, db, row, now)) sent++;
    else failed++;
  }
  return { sent, failed };
}
