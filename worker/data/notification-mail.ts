import { and, eq } from "drizzle-orm";
import type { AlertRuleName, AlertSeverity, Language } from "../../schema/domain";
import type { Nullable, SqlRow } from "../../schema/sql-row";
import {
  type alerts,
  emailOutbox,
  type monitoringSystems,
  type notifications,
  type sites,
  type userPreferences,
  type users,
} from "../../schema/tables";
import type { Db } from "../lib/db";

/** A member who may get mail: their address, organisation and mail preferences (defaults when unset). */
export interface MailRecipient {
  id: string;
  email: string;
  orgId: string;
  language: Language;
  timezone: string;
  realtimeAlerts: boolean;
  weeklyDigest: boolean;
  monthlyReports: boolean;
}

/** A member (always of an organisation here) and their preferences (LEFT JOIN: null when never saved). */
type RecipientRow = Pick<SqlRow<typeof users>, "id" | "email"> & { org_id: string } & Nullable<
    Pick<
      SqlRow<typeof userPreferences>,
      "language" | "timezone" | "realtime_alerts" | "weekly_digest" | "monthly_reports"
    >
  >;

const SELECT_RECIPIENTS = `
  SELECT u.id, u.email, u.org_id, p.language, p.timezone, p.realtime_alerts, p.weekly_digest, p.monthly_reports
  FROM users u LEFT JOIN user_preferences p ON p.user_id = u.id`;

const toRecipient = (row: RecipientRow): MailRecipient => ({
  id: row.id,
  email: row.email,
  orgId: row.org_id,
  language: (row.language ?? "en") as Language,
  timezone: row.timezone ?? "UTC",
  realtimeAlerts: row.realtime_alerts !== 0,
  weeklyDigest: row.weekly_digest !== 0,
  monthlyReports: row.monthly_reports !== 0,
});

/** Members of an organisation (users without one get no fleet mail) who take a digest or a report. */
export async function listPeriodicRecipients(db: Db): Promise<MailRecipient[]> {
  const rows = await db.$client
    .prepare(
      `${SELECT_RECIPIENTS} WHERE u.org_id IS NOT NULL
         AND (coalesce(p.weekly_digest, 1) = 1 OR coalesce(p.monthly_reports, 1) = 1)`,
    )
    .all<RecipientRow>();
  return rows.results.map(toRecipient);
}

export async function findRecipient(db: Db, userId: string): Promise<MailRecipient | null> {
  const row = await db.$client
    .prepare(`${SELECT_RECIPIENTS} WHERE u.id = ? AND u.org_id IS NOT NULL`)
    .bind(userId)
    .first<RecipientRow>();
  return row ? toRecipient(row) : null;
}

/** Members with alert notifications waiting for a real-time e-mail (notifications_email_pending_idx). */
export async function listUsersWithPendingAlertMail(db: Db, limit: number): Promise<string[]> {
  const rows = await db.$client
    .prepare("SELECT DISTINCT user_id FROM notifications WHERE email_pending = 1 LIMIT ?")
    .bind(limit)
    .all<Pick<SqlRow<typeof notifications>, "user_id">>();
  return rows.results.map((r) => r.user_id);
}

export interface PendingAlertMail {
  notificationId: string;
  orgId: string;
  alertId: string | null;
  title: string;
  /** The alert's rule (null when the notification's alert is gone). */
  rule: AlertRuleName | null;
  severity: AlertSeverity | null;
  createdAt: number;
  systemName: string | null;
  siteName: string | null;
}

/** One member's alert notifications waiting for an e-mail, oldest first, with where the alert is. */
export async function listPendingAlertMail(db: Db, userId: string): Promise<PendingAlertMail[]> {
  const rows = await db.$client
    .prepare(
      `SELECT n.id, n.org_id, n.alert_id, n.title, a.rule, n.severity, n.created_at, ms.name AS system_name, s.name AS site_name
       FROM notifications n
       LEFT JOIN alerts a ON a.id = n.alert_id AND a.org_id = n.org_id
       LEFT JOIN monitoring_systems ms ON ms.id = a.system_id AND ms.org_id = n.org_id
       LEFT JOIN sites s ON s.id = ms.site_id AND s.org_id = n.org_id
       WHERE n.user_id = ? AND n.email_pending = 1 ORDER BY n.created_at, n.id`,
    )
    .bind(userId)
    .all<
      Pick<
        SqlRow<typeof notifications>,
        "id" | "org_id" | "alert_id" | "title" | "severity" | "created_at"
      > & {
        rule: Nullable<SqlRow<typeof alerts>>["rule"];
        system_name: Nullable<SqlRow<typeof monitoringSystems>>["name"];
        site_name: Nullable<SqlRow<typeof sites>>["name"];
      }
    >();
  return rows.results.map((r) => ({
    notificationId: r.id,
    orgId: r.org_id,
    alertId: r.alert_id,
    title: r.title,
    rule: r.rule,
    severity: r.severity,
    createdAt: r.created_at,
    systemName: r.system_name,
    siteName: r.site_name,
  }));
}

/** Marks the listed notifications as handled by the mail job (sent in `emailedAt`'s mail, or dropped). */
export const clearPendingAlertMail = (db: Db, userId: string, ids: string[], emailedAt: number | null) =>
  db.$client
    .prepare(
      `UPDATE notifications SET email_pending = 0, emailed_at = ?
       WHERE user_id = ? AND email_pending = 1 AND id IN (SELECT value FROM json_each(?))`,
    )
    .bind(emailedAt, userId, JSON.stringify(ids));

/** Whether this member's digest or report of this period is already in the outbox. */
export async function hasPeriodMail(db: Db, userId: string, kind: string, period: string) {
  const rows = await db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.userId, userId), eq(emailOutbox.kind, kind), eq(emailOutbox.period, period)))
    .limit(1);
  return rows.length > 0;
}
