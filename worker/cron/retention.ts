import { deleteExpiredAlertChildren, deleteExpiredAlerts } from "../data/alerts";
import { deleteAuditEntriesBefore } from "../data/audit";
import { deleteSentMailBefore } from "../data/email-outbox";
import { deleteIrradianceHoursBefore } from "../data/irradiance";
import { deleteOldAlertlessNotifications, deleteReadNotifications } from "../data/notifications";
import { deleteExpiredSyncRuns } from "../data/sync-runs";
import type { Env } from "../env";
import { daysSetting } from "../lib/days-setting";
import { createDb, type Db } from "../lib/db";

const DAY_MS = 86_400_000;

/**
 * Ended sync runs are kept a week for support, each connection's latest ended run always. At
 * 7,500 connections a day adds 2.2 million runs (docs/scale.md): a month would near D1's 10 GB.
 */
export const SYNC_RUN_RETENTION_DAYS = 7;
/** 2.9 million a day at one pass every 5 minutes: above what such a platform adds, so a backlog shrinks. */
export const SYNC_RUNS_REMOVED_PER_PASS = 10_000;

/** Audit entries are kept a year unless AUDIT_RETENTION_DAYS says otherwise (a compliance choice). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;
export const AUDIT_ENTRIES_REMOVED_PER_PASS = 10_000;

/**
 * Resolved alerts, with their history and notifications, are kept 13 months after they resolved,
 * so a month can be compared with the same month a year before. Open alerts are never removed.
 */
export const RESOLVED_ALERT_RETENTION_DAYS = 400;
/** Alerts one pass removes at most; their history and notifications go first, each bounded too. */
export const ALERTS_REMOVED_PER_PASS = 1_000;
export const ALERT_EVENTS_REMOVED_PER_PASS = 10_000;
export const ALERT_NOTIFICATIONS_REMOVED_PER_PASS = 10_000;

/** Notifications a member has read are kept 90 days after reading; unread ones stay with their alert. */
export const READ_NOTIFICATION_RETENTION_DAYS = 90;
/** Notifications of no alert (none is written today) go once old, read or not. */
export const ALERTLESS_NOTIFICATION_RETENTION_DAYS = RESOLVED_ALERT_RETENTION_DAYS;
export const NOTIFICATIONS_REMOVED_PER_PASS = 10_000;

/** Sent mail is kept 30 days (what went out, for support); unsent mail is retried and never removed. */
export const SENT_MAIL_RETENTION_DAYS = 30;
/** Mails carry their HTML and attachments (a report's CSV), so fewer go per pass. */
export const SENT_MAILS_REMOVED_PER_PASS = 1_000;

/**
 * Hourly irradiance is kept 400 days: the longest reader, one system's analytics over `1y`,
 * wants the 365 local days before today, and the weather service is asked for 7 days back only,
 * so an hour removed cannot come back.
 */
export const IRRADIANCE_RETENTION_DAYS = 400;
export const IRRADIANCE_HOURS_REMOVED_PER_PASS = 10_000;

export interface RetentionRemoved {
  syncRuns: number;
  auditEntries: number;
  alertEvents: number;
  alertNotifications: number;
  alerts: number;
  readNotifications: number;
  alertlessNotifications: number;
  sentMails: number;
  irradianceHours: number;
}

type RetentionRule = (db: Db, now: number, env: Env) => Promise<number>;

/**
 * In order: an expired alert's history and notifications go before the alert, so deleting it
 * cascades to nothing and the pass stays within its bounds.
 */
const RULES: { [Name in keyof RetentionRemoved]: RetentionRule } = {
  syncRuns: (db, now) =>
    deleteExpiredSyncRuns(db, now - SYNC_RUN_RETENTION_DAYS * DAY_MS, SYNC_RUNS_REMOVED_PER_PASS),
  auditEntries: (db, now, env) =>
    deleteAuditEntriesBefore(
      db,
      now - daysSetting(env.AUDIT_RETENTION_DAYS, DEFAULT_AUDIT_RETENTION_DAYS) * DAY_MS,
      AUDIT_ENTRIES_REMOVED_PER_PASS,
    ),
  alertEvents: (db, now) =>
    deleteExpiredAlertChildren(
      db,
      "alert_events",
      now - RESOLVED_ALERT_RETENTION_DAYS * DAY_MS,
      ALERTS_REMOVED_PER_PASS,
      ALERT_EVENTS_REMOVED_PER_PASS,
    ),
  alertNotifications: (db, now) =>
    deleteExpiredAlertChildren(
      db,
      "notifications",
      now - RESOLVED_ALERT_RETENTION_DAYS * DAY_MS,
      ALERTS_REMOVED_PER_PASS,
      ALERT_NOTIFICATIONS_REMOVED_PER_PASS,
    ),
  alerts: (db, now) =>
    deleteExpiredAlerts(db, now - RESOLVED_ALERT_RETENTION_DAYS * DAY_MS, ALERTS_REMOVED_PER_PASS),
  readNotifications: (db, now) =>
    deleteReadNotifications(
      db,
      now - READ_NOTIFICATION_RETENTION_DAYS * DAY_MS,
      NOTIFICATIONS_REMOVED_PER_PASS,
    ),
  alertlessNotifications: (db, now) =>
    deleteOldAlertlessNotifications(
      db,
      now - ALERTLESS_NOTIFICATION_RETENTION_DAYS * DAY_MS,
      NOTIFICATIONS_REMOVED_PER_PASS,
    ),
  sentMails: (db, now) =>
    deleteSentMailBefore(db, now - SENT_MAIL_RETENTION_DAYS * DAY_MS, SENT_MAILS_REMOVED_PER_PASS),
  irradianceHours: (db, now) =>
    deleteIrradianceHoursBefore(
      db,
      now - IRRADIANCE_RETENTION_DAYS * DAY_MS,
      IRRADIANCE_HOURS_REMOVED_PER_PASS,
    ),
};

/**
 * One pass of every D1 table that grows with time: each rule removes what is past its retention,
 * up to its bound, in a statement of its own (no pass holds D1 for long), and a backlog continues
 * on the next pass. A rule that fails is logged and the others still run.
 */
export async function removeExpiredRows({ env, now }: { env: Env; now: number }): Promise<RetentionRemoved> {
  const db = createDb(env.DB);
  const removed: RetentionRemoved = {
    syncRuns: 0,
    auditEntries: 0,
    alertEvents: 0,
    alertNotifications: 0,
    alerts: 0,
    readNotifications: 0,
    alertlessNotifications: 0,
    sentMails: 0,
    irradianceHours: 0,
  };
  for (const name of Object.keys(RULES) as (keyof RetentionRemoved)[]) {
    try {
      removed[name] = await RULES[name](db, now, env);
    } catch (error) {
      console.error(JSON.stringify({ msg: "retention rule failed", rule: name, error: String(error) }));
    }
  }
  return removed;
}
