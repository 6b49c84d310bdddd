import type { AlertSeverity } from "../../schema/domain";
import type { NotificationRow } from "../../schema/tables";
import type { Db } from "../lib/db";

/** Unread notifications of one member (served by notifications_user_created_idx). */
export async function countUnreadNotifications(db: Db, orgId: string, userId: string): Promise<number> {
  const row = await db.$client
    .prepare("SELECT count(*) AS n FROM notifications WHERE user_id = ? AND org_id = ? AND read_at IS NULL")
    .bind(userId, orgId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** A member's newest notifications, newest first. */
export async function listNotifications(db: Db, orgId: string, userId: string, limit: number) {
  const rows = await db.$client
    .prepare(
      `SELECT id, kind, alert_id AS alertId, title, severity, created_at AS createdAt, read_at AS readAt FROM notifications
       WHERE user_id = ? AND org_id = ? ORDER BY created_at DESC, id LIMIT ?`,
    )
    .bind(userId, orgId, limit)
    .all<Pick<NotificationRow, "id" | "kind" | "alertId" | "title" | "severity" | "createdAt" | "readAt">>();
  return rows.results;
}

/** Marks the member's listed notifications (all when `ids` is null) read; others' are never touched. */
export const markNotificationsReadQuery = (
  db: Db,
  orgId: string,
  userId: string,
  ids: string[] | null,
  now: number,
) =>
  db.$client
    .prepare(
      `UPDATE notifications SET read_at = ? WHERE user_id = ? AND org_id = ? AND read_at IS NULL
         AND (? IS NULL OR id IN (SELECT value FROM json_each(?)))`,
    )
    .bind(now, userId, orgId, ids ? 1 : null, JSON.stringify(ids ?? []))
    .run();

/**
 * In-app notifications of an alert for every member of the organisation, only if the alert
 * exists; a new alert also waits for a real-time e-mail to each member whose preference is on
 * (on by default, without a preferences row).
 */
export const notifyMembersOfAlert = (
  db: Db,
  orgId: string,
  alertId: string,
  kind: "alert_opened" | "alert_resolved",
  title: string,
  severity: AlertSeverity,
  at: number,
) =>
  db.$client
    .prepare(
      `INSERT INTO notifications (id, org_id, user_id, kind, alert_id, title, severity, created_at, email_pending)
       SELECT lower(hex(randomblob(16))), ?, u.id, ?, ?, ?, ?, ?,
         ? = 'alert_opened' AND coalesce(p.realtime_alerts, 1) = 1
       FROM users u LEFT JOIN user_preferences p ON p.user_id = u.id
       WHERE u.org_id = ? AND EXISTS (SELECT 1 FROM alerts WHERE id = ?)`,
    )
    .bind(orgId, kind, alertId, title, severity, at, kind, orgId, alertId);
