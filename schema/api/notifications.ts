import { z } from "zod";
import { alertRuleNames, alertSeverities, notificationKinds } from "../domain";

/** One in-app notification of the signed-in member. */
export const notificationSchema = z.object({
  id: z.string(),
  kind: z.enum(notificationKinds),
  alertId: z.string().nullable(),
  /** The rule of the alert it tells of (a screen names Sunfleet's rules in the reader's language). */
  rule: z.enum(alertRuleNames).nullable(),
  /** In English: the alert's title, with " resolved" when it tells of a resolution. */
  title: z.string(),
  severity: z.enum(alertSeverities).nullable(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationsSchema = z.object({
  notifications: z.array(notificationSchema),
  unread: z.number(),
});
export type Notifications = z.infer<typeof notificationsSchema>;

/** Marks the listed notifications read, or every one without `ids`. */
export const notificationsReadSchema = z.strictObject({
  ids: z.array(z.string().max(64)).min(1).max(200).optional(),
});
export type NotificationsRead = z.infer<typeof notificationsReadSchema>;

/** What is left unread after marking. */
export const unreadCountSchema = z.object({ unread: z.number() });
