import type { Notifications, NotificationsRead } from "../../schema/api/notifications";
import {
  countUnreadNotifications,
  listNotifications,
  markNotificationsReadQuery,
} from "../data/notifications";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";

/** How many of a member's newest notifications the bell lists. */
export const NOTIFICATIONS_LIMIT = 50;

const unreadCount = (ctx: ReturnType<typeof authorizeOrgAction>) =>
  countUnreadNotifications(ctx.db, ctx.user.orgId, ctx.user.id);

/** The member's newest notifications and unread count (served by notifications_user_created_idx). */
export async function getNotifications(ctx: UserContext): Promise<Notifications> {
  const org = authorizeOrgAction(ctx, "org:read");
  const rows = await listNotifications(org.db, org.user.orgId, org.user.id, NOTIFICATIONS_LIMIT);
  return {
    notifications: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      alertId: r.alertId,
      rule: r.rule,
      title: r.title,
      severity: r.severity,
      createdAt: new Date(r.createdAt).toISOString(),
      read: r.readAt !== null,
    })),
    unread: await unreadCount(org),
  };
}

/** Marks the member's listed notifications (or all of them) read; others' are never touched. */
export async function markNotificationsRead(ctx: UserContext, body: NotificationsRead) {
  const org = authorizeOrgAction(ctx, "org:read");
  await markNotificationsReadQuery(org.db, org.user.orgId, org.user.id, body.ids ?? null, org.now);
  return { unread: await unreadCount(org) };
}
