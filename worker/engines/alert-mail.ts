import { lastMailAt } from "../data/email-outbox";
import {
  clearPendingAlertMail,
  findRecipient,
  listPendingAlertMail,
  listUsersWithPendingAlertMail,
  type MailRecipient,
  type PendingAlertMail,
} from "../data/notification-mail";
import type { Env } from "../env";
import { type Db, runBatch } from "../lib/db";
import { renderMail } from "../mail/layout";
import { mailOrigin, unsubscribeUrl } from "../mail/links";
import { formatMailTime, mailMessages } from "../mail/messages";
import { deliverMail, queueMail } from "../mail/outbox";

export const REALTIME_KIND = "realtime_alerts";
/** At most one real-time alert mail per member in this time; later alerts wait for the next one. */
export const REALTIME_GAP_MS = 15 * 60_000;
const USERS_PER_RUN = 500;

function alertMail(
  recipient: MailRecipient,
  pending: PendingAlertMail[],
  unsubscribe: string,
  origin: string,
) {
  const words = mailMessages[recipient.language];
  const items = pending.map((n) => {
    const severity = n.severity ? `${words.severity[n.severity]}: ` : "";
    // A site made from one plant carries the plant's name: named once.
    const site = n.siteName === n.systemName ? null : n.siteName;
    const place = [site, n.systemName].filter(Boolean).join(" / ") || "—";
    const title = n.rule && n.rule !== "vendor_alarm" ? words.ruleName[n.rule] : n.title;
    return words.alertAt(
      `${severity}${title}`,
      place,
      formatMailTime(n.createdAt, recipient.language, recipient.timezone),
    );
  });
  const subject = words.alertsSubject(pending.length);
  return {
    subject,
    ...renderMail(recipient.language, subject, {
      paragraphs: [words.alertsIntro],
      items,
      tables: [],
      action: { label: words.alertsAction, url: `${origin}/app/alerts` },
      unsubscribe: { label: words.unsubscribeAlerts, url: unsubscribe },
    }),
  };
}

/**
 * Sends each member's waiting alert notifications as one mail, unless they had one in the last
 * 15 minutes (then the next run after that sends them together). Notifications of a member whose
 * preference is now off, or who left the organisation, are dropped from the mail queue.
 */
export async function sendRealtimeAlertMail({ env, db, now }: { env: Env; db: Db; now: number }) {
  let mailed = 0;
  let waiting = 0;
  const queued: string[] = [];
  for (const userId of await listUsersWithPendingAlertMail(db, USERS_PER_RUN)) {
    const [recipient, pending] = await Promise.all([
      findRecipient(db, userId),
      listPendingAlertMail(db, userId),
    ]);
    // Nothing crosses organisations: a notification of an organisation the member left is dropped.
    const own = pending.filter((n) => recipient !== null && n.orgId === recipient.orgId);
    const foreign = pending.filter((n) => !own.includes(n)).map((n) => n.notificationId);
    if (foreign.length > 0) await clearPendingAlertMail(db, userId, foreign, null).run();
    if (!recipient || own.length === 0) continue;
    const ids = own.map((n) => n.notificationId);
    if (!recipient.realtimeAlerts) {
      await clearPendingAlertMail(db, userId, ids, null).run();
      continue;
    }
    const last = await lastMailAt(db, userId, REALTIME_KIND);
    if (last !== null && now - last < REALTIME_GAP_MS) {
      waiting++;
      continue;
    }
    const content = alertMail(
      recipient,
      own,
      await unsubscribeUrl(env, userId, "realtimeAlerts", now),
      mailOrigin(env),
    );
    const mail = queueMail(
      db,
      { kind: REALTIME_KIND, orgId: recipient.orgId, userId, to: [recipient.email], ...content },
      now,
    );
    // The mail and the notifications it covers commit together: none is mailed twice or lost.
    await runBatch(db, [mail.insert, clearPendingAlertMail(db, userId, ids, now)]);
    queued.push(mail.id);
    mailed++;
  }
  await deliverMail(env, db, queued, now);
  return { mailed, waiting };
}
