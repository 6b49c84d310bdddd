import type { AlertSeverity } from "../../schema/domain";
import type { AlertRow, NotificationRow } from "../../schema/tables";
import type { Db } from "../lib/db";
import { VENDOR_ALARMS_ENABLED } from "./alert-rules";

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
      `SELECT n.id, n.kind, n.alert_id AS alertId, a.rule, n.title, n.severity, n.created_at AS createdAt,
         n.read_at AS readAt
       FROM notifications n LEFT JOIN alerts a ON a.id = n.alert_id AND a.org_id = n.org_id
       WHERE n.user_id = ? AND n.org_id = ? ORDER BY n.created_at DESC, n.id LIMIT ?`,
    )
    .bind(userId, orgId, limit)
    .all<
      Pick<NotificationRow, "id" | "kind" | "alertId" | "title" | "severity" | "createdAt" | "readAt"> & {
        rule: AlertRow["rule"] | null;
      }
    >();
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
 * In-app notifications of the alerts `alerts` selects — columns id, org_id, title, severity and
 * at (the notification's time) — for every member of each alert's organisation; an opened alert
 * also waits for a real-time e-mail to each member whose preference is on (on by default, without
 * a preferences row). Every alert notification is written through here.
 */
const notifyMembers = (
  db: Db,
  kind: "alert_opened" | "alert_resolved",
  alerts: { sql: string; params: unknown[] },
) =>
  db.$client
    .prepare(
      `INSERT INTO notifications (id, org_id, user_id, kind, alert_id, title, severity, created_at, email_pending)
       SELECT lower(hex(randomblob(16))), a.org_id, u.id, ?, a.id, a.title, a.severity, a.at,
         ? = 'alert_opened' AND coalesce(p.realtime_alerts, 1) = 1
       FROM (${alerts.sql}) a JOIN users u ON u.org_id = a.org_id
       LEFT JOIN user_preferences p ON p.user_id = u.id`,
    )
    .bind(kind, kind, ...alerts.params);

/** One alert a detection rule opened or resolved (only if the alert exists: a concurrent run may have won). */
export const notifyMembersOfAlert = (
  db: Db,
  orgId: string,
  alertId: string,
  kind: "alert_opened" | "alert_resolved",
  title: string,
  severity: AlertSeverity,
  at: number,
) =>
  notifyMembers(db, kind, {
    sql: "SELECT id, org_id, ? AS title, ? AS severity, ? AS at FROM alerts WHERE org_id = ? AND id = ?",
    params: [title, severity, at, orgId, alertId],
  });

/**
 * The notifications of one sync page's vendor alarms, as detection notifies of its own alerts,
 * while the organisation's vendor_alarm rule is on: a warning or critical alarm this page opened
 * (its row has an id the page generated, and is still open) is announced since the vendor's
 * start; a critical one the vendor has ended since it was announced (no resolved entry in its
 * history yet) is announced resolved. Runs after the page's alarm upserts and before their
 * history entries.
 */
export function notifyMembersOfVendorAlarms(
  db: Db,
  scope: { orgId: string; provider: string },
  page: { insertedIds: string[]; providerAlarmIds: string[] },
) {
  const inserted = JSON.stringify(page.insertedIds);
  return [
    notifyMembers(db, "alert_opened", {
      sql: `SELECT id, org_id, title, severity, created_at AS at FROM alerts
        WHERE org_id = ? AND provider = ? AND id IN (SELECT value FROM json_each(?))
          AND resolved = 0 AND severity IN ('warning', 'critical') AND ${VENDOR_ALARMS_ENABLED}`,
      params: [scope.orgId, scope.provider, inserted, scope.orgId],
    }),
    notifyMembers(db, "alert_resolved", {
      sql: `SELECT a.id, a.org_id, a.title || ' resolved' AS title, a.severity, a.resolved_at AS at FROM alerts a
        WHERE a.org_id = ? AND a.provider = ? AND a.provider_alarm_id IN (SELECT value FROM json_each(?))
          AND a.id NOT IN (SELECT value FROM json_each(?))
          AND a.resolved = 1 AND a.resolved_by IS NULL AND a.severity = 'critical'
          AND NOT EXISTS (SELECT 1 FROM alert_events e WHERE e.alert_id = a.id AND e.kind = 'resolved')
          AND ${VENDOR_ALARMS_ENABLED}`,
      params: [scope.orgId, scope.provider, JSON.stringify(page.providerAlarmIds), inserted, scope.orgId],
    }),
  ];
}

/**
 * Removes up to `maxRows` notifications read before `readBefore`, oldest read first (served by
 * notifications_read_idx); answers how many were removed.
 */
export async function deleteReadNotifications(db: Db, readBefore: number, maxRows: number): Promise<number> {
  const result = await db.$client
    .prepare(
      `DELETE FROM notifications WHERE id IN (
         SELECT id FROM notifications WHERE read_at < ? ORDER BY read_at LIMIT ?)`,
    )
    .bind(readBefore, maxRows)
    .run();
  return result.meta.changes;
}

/**
 * Removes up to `maxRows` notifications of no alert created before `before`, read or not, oldest
 * first (served by notifications_alert_idx); an alert's go with the alert. Answers how many.
 */
export async function deleteOldAlertlessNotifications(
  db: Db,
  before: number,
  maxRows: number,
): Promise<number> {
  const result = await db.$client
    .prepare(
      `DELETE FROM notifications WHERE id IN (
         SELECT id FROM notifications WHERE alert_id IS NULL AND created_at < ? ORDER BY created_at LIMIT ?)`,
    )
    .bind(before, maxRows)
    .run();
  return result.meta.changes;
}
