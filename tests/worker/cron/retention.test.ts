import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runMaintenance } from "../../../worker/cron/maintenance";
import {
  ALERT_EVENTS_REMOVED_PER_PASS,
  ALERT_NOTIFICATIONS_REMOVED_PER_PASS,
  ALERTLESS_NOTIFICATION_RETENTION_DAYS,
  ALERTS_REMOVED_PER_PASS,
  AUDIT_ENTRIES_REMOVED_PER_PASS,
  DEFAULT_AUDIT_RETENTION_DAYS,
  IRRADIANCE_HOURS_REMOVED_PER_PASS,
  IRRADIANCE_RETENTION_DAYS,
  NOTIFICATIONS_REMOVED_PER_PASS,
  READ_NOTIFICATION_RETENTION_DAYS,
  RESOLVED_ALERT_RETENTION_DAYS,
  removeExpiredRows,
  SENT_MAIL_RETENTION_DAYS,
  SENT_MAILS_REMOVED_PER_PASS,
  SYNC_RUN_RETENTION_DAYS,
  SYNC_RUNS_REMOVED_PER_PASS,
} from "../../../worker/cron/retention";
import { DAY_MS } from "../helpers";

const HOUR_MS = 3_600_000;
const now = Date.now();
/** A time `days` days before now, `offsetMs` later: rows of one test keep distinct times. */
const daysAgo = (days: number, offsetMs = 0) => now - days * DAY_MS + offsetMs;
const pass = (overrides: Partial<typeof env> = {}) =>
  removeExpiredRows({ env: { ...env, ...overrides }, now });

// Factories that insert straight into D1; ids carry a per-test prefix so counts read only the test's rows.

async function seedOrg(): Promise<{ orgId: string; userId: string }> {
  const orgId = crypto.randomUUID();
  const userId = crypto.randomUUID();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO organizations (id, name, created_at) VALUES (?, 'Retention Solar', 0)").bind(
      orgId,
    ),
    env.DB.prepare(
      `INSERT INTO users (id, email, full_name, password_hash, password_salt, password_iterations, org_id, role, created_at)
       VALUES (?, ?, 'Member', 'hash', 'salt', 1000, ?, 'orgOwner', 0)`,
    ).bind(userId, `${userId}@retention.test`, orgId),
  ]);
  return { orgId, userId };
}

async function seedConnection(orgId: string, provider: string): Promise<string> {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `INSERT INTO provider_connections (id, org_id, provider, credentials_ciphertext, credentials_iv, status,
       created_at, updated_at) VALUES (?, ?, ?, 'sealed', 'iv', 'paused', 0, 0)`,
  )
    .bind(id, orgId, provider)
    .run();
  return id;
}

interface RunSeed {
  id: string;
  status: "success" | "failed" | "running";
  startedAt: number;
}

const seedRuns = (orgId: string, connectionId: string, runs: RunSeed[]) =>
  env.DB.prepare(
    `INSERT INTO sync_runs (id, org_id, connection_id, provider, trigger, status, started_at)
     SELECT value ->> 'id', ?, ?, 'solis', 'cron', value ->> 'status', value ->> 'startedAt' FROM json_each(?)`,
  )
    .bind(orgId, connectionId, JSON.stringify(runs))
    .run();

/**
 * `count` rows from one INSERT … SELECT over a counter 0…count-1 (`i`): bound tests seed more rows
 * than a pass removes without one statement per row.
 */
const seedSeries = (count: number, insertSelect: string, ...params: unknown[]) =>
  env.DB.prepare(
    `WITH RECURSIVE series(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM series WHERE i + 1 < ${count})
     ${insertSelect}`,
  )
    .bind(...params)
    .run();

// Prefixes are compared with substr: D1 refuses LIKE patterns longer than 50 bytes.
const idsLike = async (table: string, prefix: string) =>
  (
    await env.DB.prepare(`SELECT id FROM ${table} WHERE substr(id, 1, ?) = ? ORDER BY id`)
      .bind(prefix.length, prefix)
      .all<{ id: string }>()
  ).results.map((row) => row.id);

const countLike = async (table: string, column: string, prefix: string) =>
  (
    await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE substr(${column}, 1, ?) = ?`)
      .bind(prefix.length, prefix)
      .first<{ n: number }>()
  )?.n ?? 0;

interface AlertSeed {
  id: string;
  createdAt: number;
  resolvedAt: number | null;
}

const seedAlerts = (orgId: string, alerts: AlertSeed[]) =>
  env.DB.prepare(
    `INSERT INTO alerts (id, org_id, title, message, severity, created_at, resolved, resolved_at, rule)
     SELECT value ->> 'id', ?, 'Inverter fault', 'Inverter fault', 'critical', value ->> 'createdAt',
       value ->> 'resolvedAt' IS NOT NULL, value ->> 'resolvedAt', 'vendor_alarm' FROM json_each(?)`,
  )
    .bind(orgId, JSON.stringify(alerts))
    .run();

const seedAlertEvents = (orgId: string, alertId: string, count: number, prefix = `${alertId}-event`) =>
  seedSeries(
    count,
    `INSERT INTO alert_events (id, alert_id, org_id, kind, rule, created_at)
     SELECT ? || '-' || i, ?, ?, 'opened', 'vendor_alarm', ? FROM series`,
    prefix,
    alertId,
    orgId,
    now,
  );

interface NotificationSeed {
  id: string;
  alertId: string | null;
  createdAt: number;
  readAt: number | null;
}

const seedNotifications = (orgId: string, userId: string, notifications: NotificationSeed[]) =>
  env.DB.prepare(
    `INSERT INTO notifications (id, org_id, user_id, kind, alert_id, title, severity, created_at, read_at)
     SELECT value ->> 'id', ?, ?, 'alert_opened', value ->> 'alertId', 'Inverter fault', 'critical',
       value ->> 'createdAt', value ->> 'readAt' FROM json_each(?)`,
  )
    .bind(orgId, userId, JSON.stringify(notifications))
    .run();

const seedAlertNotifications = (orgId: string, userId: string, alertId: string, count: number) =>
  seedSeries(
    count,
    `INSERT INTO notifications (id, org_id, user_id, kind, alert_id, title, severity, created_at, read_at)
     SELECT ? || '-note-' || i, ?, ?, 'alert_opened', ?, 'Inverter fault', 'critical', ?, NULL FROM series`,
    alertId,
    orgId,
    userId,
    alertId,
    now,
  );

describe("sync run retention", () => {
  it("removes ended runs past the retention and keeps running ones, recent ones and each connection's latest ended run", async () => {
    const { orgId } = await seedOrg();
    const stopped = await seedConnection(orgId, "solis");
    const busy = await seedConnection(orgId, "fronius");
    const old = SYNC_RUN_RETENTION_DAYS + 2;
    // A connection that stopped syncing: every run is old, and its last one stays.
    await seedRuns(orgId, stopped, [
      { id: `${stopped}-old-success`, status: "success", startedAt: daysAgo(old + 3) },
      { id: `${stopped}-old-failed`, status: "failed", startedAt: daysAgo(old + 2) },
      { id: `${stopped}-old-running`, status: "running", startedAt: daysAgo(old + 1) },
      { id: `${stopped}-latest`, status: "failed", startedAt: daysAgo(old) },
    ]);
    // A connection that syncs: its old runs go, the runs within the retention stay.
    await seedRuns(orgId, busy, [
      { id: `${busy}-old`, status: "success", startedAt: daysAgo(old) },
      { id: `${busy}-within`, status: "success", startedAt: daysAgo(SYNC_RUN_RETENTION_DAYS - 1) },
      { id: `${busy}-now`, status: "running", startedAt: now },
    ]);

    const removed = await pass();

    expect(removed.syncRuns).toBeGreaterThanOrEqual(3);
    expect(await idsLike("sync_runs", stopped)).toEqual([`${stopped}-latest`, `${stopped}-old-running`]);
    expect(await idsLike("sync_runs", busy)).toEqual([`${busy}-now`, `${busy}-within`]);
  });

  it("removes at most its bound in one pass and the rest in the next, oldest first", async () => {
    const { orgId } = await seedOrg();
    const connection = await seedConnection(orgId, "solis");
    const backlog = SYNC_RUNS_REMOVED_PER_PASS + 5;
    await seedSeries(
      backlog,
      `INSERT INTO sync_runs (id, org_id, connection_id, provider, trigger, status, started_at)
       SELECT ? || '-' || printf('%06d', i), ?, ?, 'solis', 'cron', 'success', ? + i FROM series`,
      connection,
      orgId,
      connection,
      daysAgo(SYNC_RUN_RETENTION_DAYS + 30),
    );
    await seedRuns(orgId, connection, [{ id: `${connection}-recent`, status: "success", startedAt: now }]);

    expect((await pass()).syncRuns).toBe(SYNC_RUNS_REMOVED_PER_PASS);
    // The oldest went first: what is left is the newest five and the recent run.
    const left = await idsLike("sync_runs", connection);
    expect(left).toEqual([
      ...Array.from(
        { length: 5 },
        (_, i) => `${connection}-${String(SYNC_RUNS_REMOVED_PER_PASS + i).padStart(6, "0")}`,
      ),
      `${connection}-recent`,
    ]);

    expect((await pass()).syncRuns).toBe(5);
    expect(await idsLike("sync_runs", connection)).toEqual([`${connection}-recent`]);
  });
});

describe("audit log retention", () => {
  const seedAudit = (entries: { id: string; createdAt: number }[]) =>
    env.DB.prepare(
      `INSERT INTO audit_logs (id, org_id, action, created_at)
       SELECT value ->> 'id', NULL, 'auth.login_failed', value ->> 'createdAt' FROM json_each(?)`,
    )
      .bind(JSON.stringify(entries))
      .run();

  it("removes entries older than a year by default and keeps the year's", async () => {
    const prefix = `audit-${crypto.randomUUID()}`;
    await seedAudit([
      { id: `${prefix}-expired`, createdAt: daysAgo(DEFAULT_AUDIT_RETENTION_DAYS + 1) },
      { id: `${prefix}-within`, createdAt: daysAgo(DEFAULT_AUDIT_RETENTION_DAYS - 1) },
    ]);
    await pass();
    expect(await idsLike("audit_logs", prefix)).toEqual([`${prefix}-within`]);
  });

  it("keeps entries as many days as AUDIT_RETENTION_DAYS says", async () => {
    const prefix = `audit-${crypto.randomUUID()}`;
    await seedAudit([
      { id: `${prefix}-31-days`, createdAt: daysAgo(31) },
      { id: `${prefix}-29-days`, createdAt: daysAgo(29) },
    ]);
    // Nothing this young goes by default.
    await pass();
    expect(await idsLike("audit_logs", prefix)).toEqual([`${prefix}-29-days`, `${prefix}-31-days`]);
    await pass({ AUDIT_RETENTION_DAYS: "30" });
    expect(await idsLike("audit_logs", prefix)).toEqual([`${prefix}-29-days`]);
    // A value that is not a positive number falls back to the default.
    await seedAudit([{ id: `${prefix}-400-days`, createdAt: daysAgo(400) }]);
    await pass({ AUDIT_RETENTION_DAYS: "zero" });
    expect(await idsLike("audit_logs", prefix)).toEqual([`${prefix}-29-days`]);
  });

  it("removes at most its bound in one pass and the rest in the next", async () => {
    const prefix = `audit-${crypto.randomUUID()}`;
    await seedSeries(
      AUDIT_ENTRIES_REMOVED_PER_PASS + 5,
      `INSERT INTO audit_logs (id, org_id, action, created_at)
       SELECT ? || '-' || i, NULL, 'auth.login_failed', ? + i FROM series`,
      prefix,
      daysAgo(DEFAULT_AUDIT_RETENTION_DAYS + 30),
    );
    expect((await pass()).auditEntries).toBe(AUDIT_ENTRIES_REMOVED_PER_PASS);
    expect(await countLike("audit_logs", "id", prefix)).toBe(5);
    expect((await pass()).auditEntries).toBe(5);
    expect(await countLike("audit_logs", "id", prefix)).toBe(0);
  });
});

describe("alert retention", () => {
  it("removes alerts resolved longer ago than the retention with their history and notifications, and keeps open and recently resolved ones", async () => {
    const { orgId, userId } = await seedOrg();
    const expired = `${orgId}-expired`;
    const recent = `${orgId}-resolved-recently`;
    const open = `${orgId}-open`;
    await seedAlerts(orgId, [
      { id: expired, createdAt: daysAgo(900), resolvedAt: daysAgo(RESOLVED_ALERT_RETENTION_DAYS + 1) },
      // Opened long ago but resolved within the retention: counted from its resolution.
      { id: recent, createdAt: daysAgo(900), resolvedAt: daysAgo(RESOLVED_ALERT_RETENTION_DAYS - 1) },
      { id: open, createdAt: daysAgo(900), resolvedAt: null },
    ]);
    for (const alertId of [expired, recent, open]) {
      await seedAlertEvents(orgId, alertId, 2);
      await seedNotifications(orgId, userId, [
        { id: `${alertId}-unread`, alertId, createdAt: daysAgo(900), readAt: null },
        // Read within the notifications' own retention: only the alert's removal takes it.
        { id: `${alertId}-read`, alertId, createdAt: daysAgo(900), readAt: daysAgo(1) },
      ]);
    }

    const removed = await pass();

    expect(removed).toMatchObject({ alerts: 1, alertEvents: 2, alertNotifications: 2 });
    expect(await idsLike("alerts", orgId)).toEqual([open, recent]);
    for (const alertId of [recent, open]) {
      expect(await countLike("alert_events", "alert_id", alertId)).toBe(2);
      expect(await idsLike("notifications", alertId)).toEqual([`${alertId}-read`, `${alertId}-unread`]);
    }
    expect(await countLike("alert_events", "alert_id", expired)).toBe(0);
    expect(await countLike("notifications", "alert_id", expired)).toBe(0);
  });

  it("removes at most its bound of alerts in one pass and the rest in the next", async () => {
    const { orgId } = await seedOrg();
    const backlog = ALERTS_REMOVED_PER_PASS + 3;
    await seedSeries(
      backlog,
      `INSERT INTO alerts (id, org_id, title, message, severity, created_at, resolved, resolved_at, rule)
       SELECT ? || '-' || i, ?, 'Inverter fault', 'Inverter fault', 'warning', ?, 1, ? + i, 'vendor_alarm' FROM series`,
      orgId,
      orgId,
      daysAgo(900),
      daysAgo(RESOLVED_ALERT_RETENTION_DAYS + 30),
    );
    await seedSeries(
      backlog,
      `INSERT INTO alert_events (id, alert_id, org_id, kind, rule, created_at)
       SELECT ? || '-event-' || i, ? || '-' || i, ?, 'opened', 'vendor_alarm', ? FROM series`,
      orgId,
      orgId,
      orgId,
      daysAgo(900),
    );

    const first = await pass();
    expect(first).toMatchObject({ alerts: ALERTS_REMOVED_PER_PASS, alertEvents: ALERTS_REMOVED_PER_PASS });
    expect(await countLike("alerts", "id", orgId)).toBe(3);
    expect(await countLike("alert_events", "org_id", orgId)).toBe(3);

    expect(await pass()).toMatchObject({ alerts: 3, alertEvents: 3 });
    expect(await countLike("alerts", "id", orgId)).toBe(0);
  });

  it("removes an expired alert's history and notifications within their bounds before the alert, over as many passes as it takes", async () => {
    const { orgId, userId } = await seedOrg();
    const alertId = `${orgId}-busy`;
    await seedAlerts(orgId, [
      { id: alertId, createdAt: daysAgo(900), resolvedAt: daysAgo(RESOLVED_ALERT_RETENTION_DAYS + 1) },
    ]);
    await seedAlertEvents(orgId, alertId, ALERT_EVENTS_REMOVED_PER_PASS + 4);
    await seedAlertNotifications(orgId, userId, alertId, ALERT_NOTIFICATIONS_REMOVED_PER_PASS + 6);

    // Deleting the alert with its children would cascade past the bounds: it waits for them.
    const first = await pass();
    expect(first).toMatchObject({
      alertEvents: ALERT_EVENTS_REMOVED_PER_PASS,
      alertNotifications: ALERT_NOTIFICATIONS_REMOVED_PER_PASS,
      alerts: 0,
    });
    expect(await countLike("alert_events", "alert_id", alertId)).toBe(4);
    expect(await countLike("notifications", "alert_id", alertId)).toBe(6);
    expect(await idsLike("alerts", alertId)).toEqual([alertId]);

    expect(await pass()).toMatchObject({ alertEvents: 4, alertNotifications: 6, alerts: 1 });
    expect(await idsLike("alerts", alertId)).toEqual([]);
  });
});

describe("notification retention", () => {
  it("removes notifications read longer ago than the retention and old ones of no alert, and keeps unread ones of a kept alert", async () => {
    const { orgId, userId } = await seedOrg();
    const alertId = `${orgId}-open`;
    await seedAlerts(orgId, [{ id: alertId, createdAt: daysAgo(900), resolvedAt: null }]);
    const p = orgId;
    await seedNotifications(orgId, userId, [
      {
        id: `${p}-read-long-ago`,
        alertId,
        createdAt: daysAgo(200),
        readAt: daysAgo(READ_NOTIFICATION_RETENTION_DAYS + 1),
      },
      {
        id: `${p}-read-recently`,
        alertId,
        createdAt: daysAgo(200),
        readAt: daysAgo(READ_NOTIFICATION_RETENTION_DAYS - 1),
      },
      { id: `${p}-unread-old`, alertId, createdAt: daysAgo(900), readAt: null },
      {
        id: `${p}-alertless-expired`,
        alertId: null,
        createdAt: daysAgo(ALERTLESS_NOTIFICATION_RETENTION_DAYS + 1),
        readAt: null,
      },
      {
        id: `${p}-alertless-within`,
        alertId: null,
        createdAt: daysAgo(ALERTLESS_NOTIFICATION_RETENTION_DAYS - 1),
        readAt: null,
      },
    ]);

    const removed = await pass();

    expect(removed).toMatchObject({ readNotifications: 1, alertlessNotifications: 1 });
    expect(await idsLike("notifications", p)).toEqual([
      `${p}-alertless-within`,
      `${p}-read-recently`,
      `${p}-unread-old`,
    ]);
  });

  it("removes at most its bound of read notifications in one pass and the rest in the next", async () => {
    const { orgId, userId } = await seedOrg();
    await seedSeries(
      NOTIFICATIONS_REMOVED_PER_PASS + 5,
      `INSERT INTO notifications (id, org_id, user_id, kind, alert_id, title, created_at, read_at)
       SELECT ? || '-' || i, ?, ?, 'alert_opened', NULL, 'Inverter fault', ?, ? + i FROM series`,
      orgId,
      orgId,
      userId,
      daysAgo(200),
      daysAgo(READ_NOTIFICATION_RETENTION_DAYS + 30),
    );
    expect((await pass()).readNotifications).toBe(NOTIFICATIONS_REMOVED_PER_PASS);
    expect(await countLike("notifications", "id", orgId)).toBe(5);
    expect((await pass()).readNotifications).toBe(5);
    expect(await countLike("notifications", "id", orgId)).toBe(0);
  });
});

describe("e-mail outbox retention", () => {
  const seedMail = (rows: { id: string; createdAt: number; sentAt: number | null }[]) =>
    env.DB.prepare(
      `INSERT INTO email_outbox (id, kind, to_email, subject, html, text, created_at, attempts, next_attempt_at, sent_at)
       SELECT value ->> 'id', 'alert_realtime', 'member@retention.test', 'Alert', '<p>Alert</p>', 'Alert',
         value ->> 'createdAt', 3, CASE WHEN value ->> 'sentAt' IS NULL THEN value ->> 'createdAt' END,
         value ->> 'sentAt' FROM json_each(?)`,
    )
      .bind(JSON.stringify(rows))
      .run();

  it("removes mail sent longer ago than the retention and keeps recent and unsent mail", async () => {
    const prefix = `mail-${crypto.randomUUID()}`;
    await seedMail([
      {
        id: `${prefix}-sent-long-ago`,
        createdAt: daysAgo(60),
        sentAt: daysAgo(SENT_MAIL_RETENTION_DAYS + 1),
      },
      {
        id: `${prefix}-sent-recently`,
        createdAt: daysAgo(60),
        sentAt: daysAgo(SENT_MAIL_RETENTION_DAYS - 1),
      },
      // Still being retried, however old: mail is never dropped.
      { id: `${prefix}-unsent`, createdAt: daysAgo(700), sentAt: null },
    ]);
    await pass();
    expect(await idsLike("email_outbox", prefix)).toEqual([`${prefix}-sent-recently`, `${prefix}-unsent`]);
  });

  it("removes at most its bound in one pass and the rest in the next", async () => {
    const prefix = `mail-${crypto.randomUUID()}`;
    await seedSeries(
      SENT_MAILS_REMOVED_PER_PASS + 5,
      `INSERT INTO email_outbox (id, kind, to_email, subject, html, text, created_at, attempts, sent_at)
       SELECT ? || '-' || i, 'alert_realtime', 'member@retention.test', 'Alert', '<p>Alert</p>', 'Alert', ?, 1, ? + i
       FROM series`,
      prefix,
      daysAgo(90),
      daysAgo(SENT_MAIL_RETENTION_DAYS + 30),
    );
    expect((await pass()).sentMails).toBe(SENT_MAILS_REMOVED_PER_PASS);
    expect(await countLike("email_outbox", "id", prefix)).toBe(5);
    expect((await pass()).sentMails).toBe(5);
    expect(await countLike("email_outbox", "id", prefix)).toBe(0);
  });
});

describe("irradiance retention", () => {
  const hoursAt = async (locationKey: string) =>
    (
      await env.DB.prepare(
        "SELECT hour_start FROM irradiance_hourly WHERE location_key = ? ORDER BY hour_start",
      )
        .bind(locationKey)
        .all<{ hour_start: number }>()
    ).results.map((row) => row.hour_start);

  it("removes hours older than the retention and keeps those the analytics' year reads", async () => {
    const locationKey = `retention-${crypto.randomUUID()}`;
    const expired = Math.floor(daysAgo(IRRADIANCE_RETENTION_DAYS + 1) / HOUR_MS) * HOUR_MS;
    const yearAgo = Math.floor(daysAgo(366) / HOUR_MS) * HOUR_MS;
    await env.DB.prepare(
      `INSERT INTO irradiance_hourly (location_key, hour_start, ghi_wm2)
       SELECT ?, value, 500 FROM json_each(?)`,
    )
      .bind(locationKey, JSON.stringify([expired, yearAgo]))
      .run();
    await pass();
    expect(await hoursAt(locationKey)).toEqual([yearAgo]);
  });

  it("removes at most its bound in one pass and the rest in the next", async () => {
    const locationKey = `retention-${crypto.randomUUID()}`;
    const firstHour = Math.floor(daysAgo(IRRADIANCE_RETENTION_DAYS + 500) / HOUR_MS) * HOUR_MS;
    await seedSeries(
      IRRADIANCE_HOURS_REMOVED_PER_PASS + 5,
      "INSERT INTO irradiance_hourly (location_key, hour_start, ghi_wm2) SELECT ?, ? + i * 3600000, 0 FROM series",
      locationKey,
      firstHour,
    );
    expect((await pass()).irradianceHours).toBe(IRRADIANCE_HOURS_REMOVED_PER_PASS);
    expect((await hoursAt(locationKey)).length).toBe(5);
    expect((await pass()).irradianceHours).toBe(5);
    expect(await hoursAt(locationKey)).toEqual([]);
  });
});

describe("the maintenance cron", () => {
  it("runs the retention pass and reports what it removed", async () => {
    const { orgId } = await seedOrg();
    const connection = await seedConnection(orgId, "solis");
    await seedRuns(orgId, connection, [
      { id: `${connection}-old`, status: "success", startedAt: daysAgo(SYNC_RUN_RETENTION_DAYS + 1) },
      { id: `${connection}-latest`, status: "success", startedAt: now },
    ]);
    const prefix = `audit-${crypto.randomUUID()}`;
    await env.DB.prepare("INSERT INTO audit_logs (id, action, created_at) VALUES (?, 'auth.login_failed', ?)")
      .bind(prefix, daysAgo(DEFAULT_AUDIT_RETENTION_DAYS + 1))
      .run();

    const result = await runMaintenance({ env, now });

    expect(result.syncRunsRemoved).toBeGreaterThanOrEqual(1);
    expect(result.rowsRemoved.auditEntries).toBeGreaterThanOrEqual(1);
    expect(await idsLike("sync_runs", connection)).toEqual([`${connection}-latest`]);
    expect(await idsLike("audit_logs", prefix)).toEqual([]);
  });
});
