import type { Notifications, NotificationsRead } from "../../schema/api/notifications";
import type { AlertSeverity, NotificationKind } from "../../schema/domain";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";

/** How many of a member's newest notifications the bell lists. */
export const NOTIFICATIONS_LIMIT = 50;

async function unreadCount(ctx: ReturnType<typeof authorizeOrgAction>) {
  const row = await ctx.db.$client
    .prepare("SELECT count(*) AS n FROM notifications WHERE user_id = ? AND org_id = ? AND read_at IS NULL")
    .bind(ctx.user.id, ctx.user.orgId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** The member's newest notifications and unread count (served by notifications_user_created_idx). */
export async function getNotifications(ctx: UserContext): Promise<Notifications> {
  const org = authorizeOrgAction(ctx, "org:read");
  const rows = await org.db.$client
    .prepare(
      `SELECT id, kind, alert_id, title, severity, created_at, read_at FROM notifications
       WHERE user_id = ? AND org_id = ? ORDER BY created_at DESC, id LIMIT ?`,
    )
    .bind(org.user.id, org.user.orgId, NOTIFICATIONS_LIMIT)
    .all<{
      id: string;
      kind: NotificationKind;
      alert_id: string | null;
      title: string;
      severity: AlertSeverity | null;
      created_at: number;
      read_at: number | null;
    }>();
  return {
    notifications: rows.results.map((r) => ({
      id: r.id,
      kind: r.kind,
      alertId: r.alert_id,
      title: r.title,
      severity: r.severity,
      createdAt: new Date(r.created_at).toISOString(),
      read: r.read_at !== null,
    })),
    unread: await unreadCount(org),
  };
}

/** Marks the member's listed notifications (or all of them) read; others' are never touched. */
export async function markNotificationsRead(ctx: UserContext, body: NotificationsRead) {
  const org = authorizeOrgAction(ctx, "org:read");
  await org.db.$client
    .prepare(
      `UPDATE notifications SET read_at = ? WHERE user_id = ? AND org_id = ? AND read_at IS NULL
         AND (? IS NULL OR id IN (SELECT value FROM json_each(?)))`,
    )
    .bind(org.now, org.user.id, org.user.orgId, body.ids ? 1 : null, JSON.stringify(body.ids ?? []))
    .run();
  return { unread: await unreadCount(org) };
}
