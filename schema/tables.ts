import { sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import type { AlertFacts } from "./api/alerts";
import type { ProviderId } from "./api/providers";
import type { CurrencyCode } from "./currencies";
import type {
  AlertEventKind,
  AlertRuleName,
  AlertSeverity,
  ConnectionStatus,
  NotificationKind,
  SiteLocationSource,
  SyncOutcome,
  SyncTrigger,
  SystemState,
} from "./domain";
import type { MemberPermission, Role } from "./roles";

/** Epoch milliseconds; every timestamp column is UTC. Generic so the column keeps its name's type (SqlRow). */
const timestampMs = <Name extends string>(name: Name) => integer(name, { mode: "number" });

export const organizations = sqliteTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: timestampMs("created_at").notNull(),
  /** Whether each synced plant with a place becomes a site of its own. */
  autoCreateSites: integer("auto_create_sites", { mode: "boolean" }).notNull().default(true),
});

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Stored lower-cased: emails are case-insensitive and unique. */
    email: text("email").notNull(),
    fullName: text("full_name").notNull(),
    passwordHash: text("password_hash").notNull(),
    passwordSalt: text("password_salt").notNull(),
    passwordIterations: integer("password_iterations").notNull(),
    /** Null when the user belongs to no organisation (removed, or a platform superAdmin). */
    orgId: text("org_id").references(() => organizations.id, { onDelete: "set null" }),
    role: text("role").$type<Role>().notNull(),
    /** Null means every area the role allows. */
    permissions: text("permissions", { mode: "json" }).$type<MemberPermission[] | null>(),
    createdAt: timestampMs("created_at").notNull(),
    /**
     * When the address was proven (verification link, password reset, accepted invite); null until
     * then. Sign-up writes null; accounts that existed before verification read 0 (counted verified,
     * so nobody was locked out), as does any row inserted without it.
     */
    emailVerifiedAt: timestampMs("email_verified_at").default(0),
    /** When the never-verified account was told it will be removed; null before that. */
    verificationRemindedAt: timestampMs("verification_reminded_at"),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    // Serves member lists of one organisation.
    index("users_org_idx").on(t.orgId),
    // Serves maintenance's reminder and removal of never-verified accounts, oldest first.
    index("users_unverified_idx").on(t.emailVerifiedAt, t.createdAt),
  ],
);

/** Address verification links: only the token's hash is kept; single use, valid 48 hours. */
export const emailVerifications = sqliteTable(
  "email_verifications",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestampMs("created_at").notNull(),
    expiresAt: timestampMs("expires_at").notNull(),
  },
  (t) => [
    // Serves "send again"'s count of a user's recent links and using up all of them at once.
    index("email_verifications_user_idx").on(t.userId, t.createdAt),
    // Serves maintenance's removal of expired links.
    index("email_verifications_expires_idx").on(t.expiresAt),
  ],
);

export const invites = sqliteTable(
  "invites",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role").$type<Role>().notNull(),
    permissions: text("permissions", { mode: "json" }).$type<MemberPermission[] | null>(),
    /** SHA-256 of the token: the token itself is only ever in the accept link. */
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestampMs("expires_at").notNull(),
    acceptedAt: timestampMs("accepted_at"),
    createdAt: timestampMs("created_at").notNull(),
  },
  (t) => [
    // Serves accept-by-token lookups.
    uniqueIndex("invites_token_hash_unique").on(t.tokenHash),
    // Serves the pending-invite list of one organisation.
    index("invites_org_idx").on(t.orgId, t.acceptedAt),
  ],
);

export const auditLogs = sqliteTable(
  "audit_logs",
  {
    id: text("id").primaryKey(),
    /** Null for events outside any organisation (a failed login for an unknown email). */
    orgId: text("org_id"),
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    details: text("details", { mode: "json" }).$type<Record<string, unknown> | null>(),
    ip: text("ip"),
    createdAt: timestampMs("created_at").notNull(),
  },
  (t) => [
    // Serves the newest-first audit log of one organisation.
    index("audit_logs_org_created_idx").on(t.orgId, t.createdAt),
    // Serves retention's removal of entries past their retention, oldest first, across organisations.
    index("audit_logs_created_idx").on(t.createdAt),
  ],
);

/**
 * One row per sign-in: the token names its session, and a session that is deleted (logout,
 * password change, removal) ends the token at once.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** A label derived from the User-Agent at sign-in ("Firefox on Linux"); never the raw header. */
    device: text("device").notNull(),
    ip: text("ip"),
    createdAt: timestampMs("created_at").notNull(),
    /** Updated at most once a minute, so an active session costs one write a minute at most. */
    lastSeenAt: timestampMs("last_seen_at").notNull(),
    expiresAt: timestampMs("expires_at").notNull(),
  },
  (t) => [
    // Serves a user's session list and ending all of a user's sessions.
    index("sessions_user_idx").on(t.userId, t.lastSeenAt),
    // Serves the maintenance job's removal of expired sessions.
    index("sessions_expires_idx").on(t.expiresAt),
  ],
);

export const userPreferences = sqliteTable("user_preferences", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  monthlyReports: integer("monthly_reports", { mode: "boolean" }).notNull().default(true),
  weeklyDigest: integer("weekly_digest", { mode: "boolean" }).notNull().default(true),
  realtimeAlerts: integer("realtime_alerts", { mode: "boolean" }).notNull().default(true),
  timezone: text("timezone").notNull().default("UTC"),
  language: text("language").notNull().default("en"),
  updatedAt: timestampMs("updated_at").notNull().default(sql`(unixepoch() * 1000)`),
});

export type OrganizationRow = typeof organizations.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type InviteRow = typeof invites.$inferSelect;
export type AuditLogRow = typeof auditLogs.$inferSelect;
export type UserPreferencesRow = typeof userPreferences.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Provider connections and what their syncs store.

export const providerConnections = sqliteTable(
  "provider_connections",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    provider: text("provider").$type<ProviderId>().notNull(),
    /**
     * AES-GCM ciphertext of the credential values; organisation, connection id and purpose are
     * bound as additional data (worker/lib/credentials-crypto.ts).
     */
    credentialsCiphertext: text("credentials_ciphertext").notNull(),
    credentialsIv: text("credentials_iv").notNull(),
    /** Id of the CREDENTIALS_KEYS key that encrypted the credentials; null = the legacy single key and format. */
    credentialsKeyId: text("credentials_key_id"),
    /** Encrypted vendor session (OAuth tokens) carried between syncs; null when none. */
    sessionCiphertext: text("session_ciphertext"),
    sessionIv: text("session_iv"),
    sessionKeyId: text("session_key_id"),
    status: text("status").$type<ConnectionStatus>().notNull(),
    lastSyncAt: timestampMs("last_sync_at"),
    lastSyncStatus: text("last_sync_status").$type<SyncOutcome>(),
    lastError: text("last_error"),
    /** The newest vendor data time stored from this connection. */
    newestDataAt: timestampMs("newest_data_at"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    /** When the scheduler may sync next (interval or backoff); null = not scheduled (needs attention). */
    nextSyncAt: timestampMs("next_sync_at"),
    /** A sync in progress holds the lease until this time, so two syncs never overlap. */
    leaseUntil: timestampMs("lease_until"),
    /** The run that holds the lease (its id is the owner token); each of its units renews it. */
    leaseRunId: text("lease_run_id"),
    /**
     * When the run that last read the vendor's plant and device lists in full started; null until
     * one has finished. Steady cycles read live values of the plants listed since then.
     */
    listsReadAt: timestampMs("lists_read_at"),
    /**
     * Scheduled runs that went well within one invocation: counted here rather than kept as a
     * `sync_runs` row each (a row per connection per cycle was most of D1's writes). Failures,
     * runs that span invocations and runs members start keep their rows.
     */
    routineSyncs: integer("routine_syncs").notNull().default(0),
    createdAt: timestampMs("created_at").notNull(),
    updatedAt: timestampMs("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("provider_connections_org_provider_unique").on(t.orgId, t.provider),
    // No index on next_sync_at: every cycle moves it, and an index entry is a row written each
    // time; the cron's scan of the table (one row per connection) costs reads, which are cheap.
  ],
);

export const syncRuns = sqliteTable(
  "sync_runs",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    connectionId: text("connection_id")
      .notNull()
      .references(() => providerConnections.id, { onDelete: "cascade" }),
    provider: text("provider").$type<ProviderId>().notNull(),
    trigger: text("trigger").$type<SyncTrigger>().notNull(),
    status: text("status").$type<SyncOutcome>().notNull(),
    startedAt: timestampMs("started_at").notNull(),
    finishedAt: timestampMs("finished_at"),
    error: text("error"),
    errorKind: text("error_kind"),
    sitesCount: integer("sites_count").notNull().default(0),
    invertersCount: integer("inverters_count").notNull().default(0),
    readingsCount: integer("readings_count").notNull().default(0),
    providerCalls: integer("provider_calls").notNull().default(0),
    /** The adapter's cursor of the next unit (opaque JSON text); null before the first and after the last. */
    cursor: text("cursor"),
    /** Units are numbered from 0; a unit message whose number is not this one is a duplicate. */
    unitSeq: integer("unit_seq").notNull().default(0),
    pagesDone: integer("pages_done").notNull().default(0),
    /** The vendor's page count once known. */
    pagesTotal: integer("pages_total"),
    systemsStored: integer("systems_stored").notNull().default(0),
    /** Invocations that worked on the run and the longest of them, for the benchmark and support. */
    invocations: integer("invocations").notNull().default(0),
    longestInvocationMs: integer("longest_invocation_ms").notNull().default(0),
    /** Last time a unit committed: maintenance resumes a run that stopped and fails one stuck too long. */
    progressAt: timestampMs("progress_at"),
    /** Whether the run reads the vendor's plant and device lists, or only live values of the stored plants. */
    readsLists: integer("reads_lists", { mode: "boolean" }).notNull().default(true),
    /**
     * The newest data time of the pages stored so far: the connection takes it at the run's end,
     * so the units before the last write nothing to the connection for it.
     */
    newestDataAt: timestampMs("newest_data_at"),
  },
  (t) => [
    // Serves the newest-first run history of one connection.
    index("sync_runs_connection_started_idx").on(t.connectionId, t.startedAt),
    // Serves maintenance's scan for running runs that stopped moving.
    index("sync_runs_status_progress_idx").on(t.status, t.progressAt),
    // Serves the maintenance job's removal of runs past their retention, oldest first.
    index("sync_runs_started_idx").on(t.startedAt),
  ],
);

/**
 * A history run's plan, one row per plant: the plant-local days it lacks (31 at most), worked
 * newest first across the fleet (every plant's yesterday before any plant's day before), so
 * recent days arrive first. No value grows with the fleet: a 20,000-plant plan is 20,000 small
 * rows, each removed once its days are stored, and all with their run.
 */
export const historyPlanPlants = sqliteTable(
  "history_plan_plants",
  {
    runId: text("run_id")
      .notNull()
      .references(() => syncRuns.id, { onDelete: "cascade" }),
    systemId: text("system_id").notNull(),
    providerSystemId: text("provider_system_id").notNull(),
    timezone: text("timezone").notNull(),
    /** Plant-local YYYY-MM-DD dates, oldest first. */
    dates: text("dates", { mode: "json" }).$type<string[]>().notNull(),
    /** Days stored so far, from the newest. */
    done: integer("done").notNull().default(0),
    /** The newest date not yet stored: the claim order. */
    nextDate: text("next_date").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.systemId] }),
    // Serves the claim of the run's newest day left.
    index("history_plan_plants_next_idx").on(t.runId, t.nextDate),
  ],
);

export const monitoringSystems = sqliteTable(
  "monitoring_systems",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    connectionId: text("connection_id").references(() => providerConnections.id, { onDelete: "set null" }),
    provider: text("provider").$type<ProviderId>().notNull(),
    providerSystemId: text("provider_system_id").notNull(),
    name: text("name").notNull(),
    address: text("address"),
    latitude: real("latitude"),
    longitude: real("longitude"),
    timezone: text("timezone"),
    capacityW: real("capacity_w"),
    /** The vendor's grouping a live call needs beside the plant id (SolaX's business type); null elsewhere. */
    providerGroup: text("provider_group"),
    /** When a read of the connection's plant list last listed this plant (steady cycles skip the others). */
    listedAt: timestampMs("listed_at"),
    /** The vendor's state; live values and readings are in the organisation's fleet store. */
    state: text("state").$type<SystemState>().notNull(),
    createdAt: timestampMs("created_at").notNull(),
    updatedAt: timestampMs("updated_at").notNull(),
    /** The site this system is attached to; null while it is available. Set only by the sites service. */
    siteId: text("site_id").references((): AnySQLiteColumn => sites.id, { onDelete: "set null" }),
    /**
     * When the plant was last offered a site of its own (made, or its address not found): a site
     * the user later removes or splits is not made again by the next sync.
     */
    autoSiteAt: timestampMs("auto_site_at"),
    /**
     * The array's tilt from horizontal and azimuth (degrees clockwise from north, 180 = south) as
     * the user set them; null = not set, and readers take the site's, else the latitude's default.
     */
    tiltDeg: real("tilt_deg"),
    azimuthDeg: real("azimuth_deg"),
    /** The inverters' AC limit in kW as the user set it; null = not set. */
    acLimitKw: real("ac_limit_kw"),
  },
  (t) => [
    // Idempotent upserts: one row per vendor site in an organisation.
    uniqueIndex("monitoring_systems_org_provider_system_unique").on(t.orgId, t.provider, t.providerSystemId),
    index("monitoring_systems_connection_idx").on(t.connectionId),
    // Serves a site's systems (site lists, detach, delete) and the available list (site_id IS NULL)
    // a page at a time in name order.
    index("monitoring_systems_org_site_name_idx").on(t.orgId, t.siteId, t.name, t.id),
  ],
);

export const inverters = sqliteTable(
  "inverters",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    systemId: text("system_id")
      .notNull()
      .references(() => monitoringSystems.id, { onDelete: "cascade" }),
    providerInverterId: text("provider_inverter_id").notNull(),
    serial: text("serial"),
    model: text("model"),
    ratedPowerW: real("rated_power_w"),
    state: text("state").$type<SystemState>().notNull(),
    updatedAt: timestampMs("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("inverters_system_provider_inverter_unique").on(t.systemId, t.providerInverterId),
    // Serves the dashboard's one read of every inverter of an organisation.
    index("inverters_org_idx").on(t.orgId),
  ],
);

export const alerts = sqliteTable(
  "alerts",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    systemId: text("system_id").references(() => monitoringSystems.id, { onDelete: "cascade" }),
    provider: text("provider").$type<ProviderId>(),
    /** The vendor's alarm identity; null for alerts Sunfleet raises itself. */
    providerAlarmId: text("provider_alarm_id"),
    deviceSerial: text("device_serial"),
    code: text("code"),
    title: text("title").notNull(),
    /** In English, for API readers and exports; screens show `facts` in the reader's language. */
    message: text("message").notNull(),
    /** What a rule found, as data (JSON of schema/api/alerts' alertFactsSchema); null for vendor alarms. */
    facts: text("facts", { mode: "json" }).$type<AlertFacts>(),
    severity: text("severity").$type<AlertSeverity>().notNull(),
    createdAt: timestampMs("created_at").notNull(),
    resolved: integer("resolved", { mode: "boolean" }).notNull().default(false),
    resolvedAt: timestampMs("resolved_at"),
    /** Who resolved it by hand; null when the vendor cleared it. */
    resolvedBy: text("resolved_by"),
    /** The rule that raised it; vendor alarms are `vendor_alarm`. */
    rule: text("rule").$type<AlertRuleName>().notNull().default("vendor_alarm"),
    /**
     * `rule:system:device` while a Sunfleet alert is open, null otherwise: the unique index on it
     * keeps one open alert per system, rule and device, so a repeat updates it.
     */
    openKey: text("open_key"),
    /** Expected minus actual energy while it was open; null when there is no estimate. */
    lostEnergyWh: real("lost_energy_wh"),
    /** When the detection last saw its condition hold; it resolves after clearMinutes without. */
    lastSeenAt: timestampMs("last_seen_at"),
    acknowledgedAt: timestampMs("acknowledged_at"),
    acknowledgedBy: text("acknowledged_by"),
    /** The member it is assigned to (a user id of the same organisation). */
    assignedTo: text("assigned_to"),
  },
  (t) => [
    uniqueIndex("alerts_org_provider_alarm_unique").on(t.orgId, t.provider, t.providerAlarmId),
    uniqueIndex("alerts_org_open_key_unique").on(t.orgId, t.openKey),
    // Serves the newest-first alert list filtered by state.
    index("alerts_org_resolved_created_idx").on(t.orgId, t.resolved, t.createdAt),
    // Serves the most-energy-lost-first list (the Alerts screen's default) in its order: a page
    // joins its 50 rows to their names instead of every open alert before a sort.
    index("alerts_org_resolved_loss_idx").on(
      t.orgId,
      t.resolved,
      sql`coalesce(${t.lostEnergyWh}, -1) desc`,
      sql`${t.createdAt} desc`,
      t.id,
    ),
    // Serves retention's window of the alerts resolved longest ago.
    index("alerts_resolved_at_idx").on(t.resolvedAt),
    // Finds a system's alerts (its removal's cascade, the search text of a renamed system or site).
    index("alerts_system_idx").on(t.systemId),
  ],
);

/** What happened to an alert, by whom (a member) or by which rule. */
export const alertEvents = sqliteTable(
  "alert_events",
  {
    id: text("id").primaryKey(),
    alertId: text("alert_id")
      .notNull()
      .references(() => alerts.id, { onDelete: "cascade" }),
    orgId: text("org_id").notNull(),
    kind: text("kind").$type<AlertEventKind>().notNull(),
    /** The member who did it; null when a rule or the vendor did. */
    actorId: text("actor_id"),
    /** The rule (or `vendor_alarm`) when no member did it. */
    rule: text("rule").$type<AlertRuleName>(),
    note: text("note"),
    /** What a rule's entry says, as data (as alerts.facts); null for members' and vendors' entries. */
    facts: text("facts", { mode: "json" }).$type<AlertFacts>(),
    createdAt: timestampMs("created_at").notNull(),
  },
  (t) => [
    // Serves one alert's history, oldest first.
    index("alert_events_alert_created_idx").on(t.alertId, t.createdAt),
  ],
);

/** An organisation's settings of one detection rule; absent rows take the defaults. */
export const alertRules = sqliteTable(
  "alert_rules",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    rule: text("rule").$type<AlertRuleName>().notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
    delayMinutes: integer("delay_minutes").notNull(),
    clearMinutes: integer("clear_minutes").notNull(),
    windowMinutes: integer("window_minutes"),
    thresholdPct: real("threshold_pct"),
    updatedAt: timestampMs("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.rule] })],
);

/** In-app notifications of one member; the bell shows the unread ones. */
export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<NotificationKind>().notNull(),
    alertId: text("alert_id").references(() => alerts.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    severity: text("severity").$type<AlertSeverity>(),
    createdAt: timestampMs("created_at").notNull(),
    readAt: timestampMs("read_at"),
    /** For alert notifications of members who take real-time e-mail: when it went into a mail. */
    emailedAt: timestampMs("emailed_at"),
    /** Whether this notification still waits for a real-time e-mail. */
    emailPending: integer("email_pending", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    // Serves a member's newest-first list and unread count.
    index("notifications_user_created_idx").on(t.userId, t.createdAt),
    // Serves the mail job's scan for notifications waiting for an e-mail.
    index("notifications_email_pending_idx").on(t.emailPending, t.userId),
    // Serves the foreign key's lookup when an alert is deleted, retention's removal of an expired
    // alert's notifications, and of old notifications of no alert (alert_id null, by time).
    index("notifications_alert_idx").on(t.alertId, t.createdAt),
    // Serves retention's removal of notifications read longest ago.
    index("notifications_read_idx").on(t.readAt),
  ],
);

/**
 * Every e-mail goes here first and is sent from here; a failed send stays with its next attempt
 * time and the cron retries it, so no mail is lost.
 */
export const emailOutbox = sqliteTable(
  "email_outbox",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id"),
    userId: text("user_id"),
    kind: text("kind").notNull(),
    toEmail: text("to_email").notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    /** JSON `[{filename, content}]` (base64 content) or null. */
    attachments: text("attachments"),
    createdAt: timestampMs("created_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestampMs("next_attempt_at"),
    sentAt: timestampMs("sent_at"),
    lastError: text("last_error"),
    /** The week (`2026-W48`) or month (`2026-11`) a digest or report covers; null for other mail. */
    period: text("period"),
  },
  (t) => [
    // One digest or report per user, kind and period, however often the cron runs.
    uniqueIndex("email_outbox_user_kind_period_unique").on(t.userId, t.kind, t.period),
    // Serves the cron's scan for mail due to be (re)sent: unsent rows by next attempt.
    index("email_outbox_due_idx").on(t.sentAt, t.nextAttemptAt),
    // Serves "when did this user last get this kind of mail" (real-time grouping).
    index("email_outbox_user_kind_idx").on(t.userId, t.kind, t.createdAt),
  ],
);

/** Password reset links: only the token's hash is kept; single use, valid one hour. */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestampMs("created_at").notNull(),
    expiresAt: timestampMs("expires_at").notNull(),
    usedAt: timestampMs("used_at"),
  },
  (t) => [
    // Serves invalidating a user's earlier links and the maintenance clean-up.
    index("password_resets_user_idx").on(t.userId),
    index("password_resets_expires_idx").on(t.expiresAt),
  ],
);

export type ProviderConnectionRow = typeof providerConnections.$inferSelect;
export type SyncRunRow = typeof syncRuns.$inferSelect;
export type MonitoringSystemRow = typeof monitoringSystems.$inferSelect;
export type InverterRow = typeof inverters.$inferSelect;
export type AlertRow = typeof alerts.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Sites (a verified address with monitoring systems attached), portfolios of sites, and the
// address lookups behind site creation.

export const sites = sqliteTable(
  "sites",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The address as the user typed it. */
    address: text("address").notNull(),
    /** The geocoder's formatted address (the API's `location`); null when none was given. */
    location: text("location"),
    latitude: real("latitude").notNull(),
    longitude: real("longitude").notNull(),
    city: text("city"),
    state: text("state"),
    country: text("country"),
    /** IANA zone derived from the coordinates. */
    timezone: text("timezone").notNull(),
    /** Where the place came from: a verified address, the vendor's coordinates, or the vendor's address geocoded. */
    locationSource: text("location_source").$type<SiteLocationSource>().notNull().default("verified"),
    /** The provider chosen at creation (that of the first system); informational. */
    provider: text("provider").$type<ProviderId>(),
    /** DC capacity set by hand; null = the sum of the attached systems' capacities. */
    capacityKw: real("capacity_kw"),
    acLimitKw: real("ac_limit_kw"),
    tiltDeg: real("tilt_deg"),
    /** Degrees clockwise from north (180 = facing south). */
    azimuthDeg: real("azimuth_deg"),
    /** Annual yield estimate in kWh as accepted at creation. */
    estimatedYieldKwh: real("estimated_yield_kwh"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    /** A free label the site lists group and filter by (a client, an installer, a region); null when none. */
    label: text("label"),
    createdAt: timestampMs("created_at").notNull(),
    updatedAt: timestampMs("updated_at").notNull(),
  },
  (t) => [
    // Serves the organisation's site list, ordered by name.
    index("sites_org_name_idx").on(t.orgId, t.name),
  ],
);

export const portfolios = sqliteTable(
  "portfolios",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Lower-cased name: names are unique per organisation whatever their case. */
    nameKey: text("name_key").notNull(),
    description: text("description"),
    createdAt: timestampMs("created_at").notNull(),
    updatedAt: timestampMs("updated_at").notNull(),
  },
  (t) => [
    // Refuses a second portfolio of the same name; also serves the list ordered by name.
    uniqueIndex("portfolios_org_name_unique").on(t.orgId, t.nameKey),
  ],
);

/** Which sites each portfolio holds; a site may sit in several portfolios. */
export const portfolioSites = sqliteTable(
  "portfolio_sites",
  {
    portfolioId: text("portfolio_id")
      .notNull()
      .references(() => portfolios.id, { onDelete: "cascade" }),
    siteId: text("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    /** Denormalised so every query filters by organisation without a join. */
    orgId: text("org_id").notNull(),
    addedAt: timestampMs("added_at").notNull(),
  },
  (t) => [
    // The key makes adding a site twice a no-op and serves a portfolio's site list.
    primaryKey({ columns: [t.portfolioId, t.siteId] }),
    // Serves the per-site side: which portfolios hold a site (site deletion, site cards).
    index("portfolio_sites_site_idx").on(t.siteId),
    // Serves every (portfolio, site) pair of an organisation (the site lists' portfolios).
    index("portfolio_sites_org_idx").on(t.orgId),
  ],
);

/** Address lookups answered by the geocoder, so a repeated query never reaches it again. */
export const geocodeCache = sqliteTable(
  "geocode_cache",
  {
    /** Normalised query and country filter; public geodata, so shared by every organisation. */
    queryKey: text("query_key").primaryKey(),
    /** The parsed results (an empty list caches "not found"). */
    results: text("results", { mode: "json" }).$type<unknown[]>().notNull(),
    fetchedAt: timestampMs("fetched_at").notNull(),
    expiresAt: timestampMs("expires_at").notNull(),
  },
  (t) => [
    // Serves the sweep of expired entries.
    index("geocode_cache_expires_idx").on(t.expiresAt),
  ],
);

/**
 * The next free call slot per rate-limited outside service, shared by every isolate: a caller
 * reserves a slot with one atomic upsert and waits for it, so calls stay spaced globally.
 */
export const outboundSlots = sqliteTable("outbound_slots", {
  service: text("service").primaryKey(),
  nextAt: timestampMs("next_at").notNull(),
});

/**
 * Prices of energy per kWh, dated: a price is in force from `valid_from` (a YYYY-MM-DD day on the
 * site's clock) until the next one of the same scope. `valid_from` '' is a scope's first price, in
 * force on every day before its first dated change (it sorts before every date).
 */
const tariffColumns = {
  /** ISO 4217 code (schema/currencies.ts). */
  currency: text("currency").$type<CurrencyCode>().notNull(),
  pricePerKwh: real("price_per_kwh").notNull(),
  validFrom: text("valid_from").notNull(),
  createdAt: timestampMs("created_at").notNull(),
  updatedAt: timestampMs("updated_at").notNull(),
};

/** A site's own prices; a site without any takes its organisation's default. */
export const siteTariffs = sqliteTable(
  "site_tariffs",
  {
    siteId: text("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    /** Denormalised so every query filters by organisation without a join. */
    orgId: text("org_id").notNull(),
    ...tariffColumns,
  },
  (t) => [
    // One price per site and day; serves a site's prices in date order.
    primaryKey({ columns: [t.siteId, t.validFrom] }),
    // Serves reading every site's prices of an organisation at once.
    index("site_tariffs_org_idx").on(t.orgId),
  ],
);

/** An organisation's default prices, for its sites without their own. */
export const orgTariffs = sqliteTable(
  "org_tariffs",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    ...tariffColumns,
  },
  (t) => [primaryKey({ columns: [t.orgId, t.validFrom] })],
);

export type SiteRow = typeof sites.$inferSelect;
export type SiteTariffRow = typeof siteTariffs.$inferSelect;
export type OrgTariffRow = typeof orgTariffs.$inferSelect;
export type PortfolioRow = typeof portfolios.$inferSelect;
export type PortfolioSiteRow = typeof portfolioSites.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Irradiance by location, which gives every organisation's expected energy. Readings, rollups and
// live values are each organisation's, in its fleet store (schema/fleet-tables.ts).

/**
 * The weather service's hours per rounded location ("52.37,4.90"): radiation as means over the
 * hour from `hour_start` (W/m²: global, and its beam and diffuse parts on the horizontal), air
 * temperature and wind at its end, rain over it. Hours stored before the parts were fetched have
 * only the global (the model then splits it itself).
 */
export const irradianceHourly = sqliteTable(
  "irradiance_hourly",
  {
    locationKey: text("location_key").notNull(),
    hourStart: timestampMs("hour_start").notNull(),
    ghiWm2: real("ghi_wm2").notNull(),
    directWm2: real("direct_wm2"),
    diffuseWm2: real("diffuse_wm2"),
    temperatureC: real("temperature_c"),
    windMs: real("wind_ms"),
    precipitationMm: real("precipitation_mm"),
  },
  (t) => [
    // Serves sums over a location's hours of one local day.
    primaryKey({ columns: [t.locationKey, t.hourStart] }),
    // Serves retention's removal of the oldest hours at every location.
    index("irradiance_hourly_hour_idx").on(t.hourStart),
  ],
);

/** When each location's irradiance was last fetched, so the weather service is asked hourly at most. */
export const irradianceFetches = sqliteTable("irradiance_fetches", {
  locationKey: text("location_key").primaryKey(),
  latitude: real("latitude").notNull(),
  longitude: real("longitude").notNull(),
  fetchedAt: timestampMs("fetched_at").notNull(),
  /** The oldest hour its stored past reaches back to with every part; null before the past was fetched. */
  historyFrom: timestampMs("history_from"),
});

// ---------------------------------------------------------------------------------------------
// Change counters for computed read models.

/**
 * A counter per scope ("org:<id>", and "irradiance" for the shared irradiance table), bumped by
 * triggers (migration 0005) on every write to an organisation's systems, inverters and sites, and
 * to irradiance. A fleet store's mirror of the metadata, and its read models, are current while
 * the counters are unchanged — whichever code path wrote.
 */
export const dataVersions = sqliteTable("data_versions", {
  scope: text("scope").primaryKey(),
  version: integer("version").notNull(),
});

/** Organisation API keys for machine access; only the SHA-256 of a key is kept. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    scope: text("scope").$type<"read" | "write">().notNull(),
    /** Hex SHA-256 of the whole key. */
    keyHash: text("key_hash").notNull(),
    /** The key's first characters, to tell keys apart in the list. */
    prefix: text("prefix").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestampMs("created_at").notNull(),
    lastUsedAt: timestampMs("last_used_at"),
    revokedAt: timestampMs("revoked_at"),
    /**
     * The areas a write key may change (never more than its creator held); a read key's is empty.
     * Null on keys made before keys had areas: every key area of their scope.
     */
    permissions: text("permissions", { mode: "json" }).$type<MemberPermission[] | null>(),
    /** Null on keys made before keys expired: they end a year after they were created. */
    expiresAt: timestampMs("expires_at"),
  },
  (t) => [
    // Serves the lookup of a presented key on every request it authenticates.
    uniqueIndex("api_keys_hash_unique").on(t.keyHash),
    // Serves the organisation's key list.
    index("api_keys_org_idx").on(t.orgId, t.createdAt),
    // Serves a member's own key list and revoking a member's keys when they are removed or narrowed.
    index("api_keys_creator_idx").on(t.createdBy),
  ],
);
export type ApiKeyRow = typeof apiKeys.$inferSelect;

// ---------------------------------------------------------------------------------------------
// The platform's own watch over its storage.

/**
 * Each fleet store as it last reported its size (worker/fleet/size-watch.ts), one row per
 * organisation and shard: at least daily, and whenever it passes 70 % of its bound or falls back
 * below it. The platform superAdmin reads them (GET /api/admin/fleet-stores), largest first.
 */
export const fleetStoreSizes = sqliteTable(
  "fleet_store_sizes",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Which of the organisation's store objects: 0 its own, 1.. the shards a large fleet is split over. */
    shard: integer("shard").notNull().default(0),
    /** The store's SQLite database, bytes. */
    bytes: integer("bytes").notNull(),
    /** What one store may hold (10 GB unless FLEET_STORE_BOUND_BYTES says otherwise), bytes. */
    boundBytes: integer("bound_bytes").notNull(),
    reportedAt: timestampMs("reported_at").notNull(),
    /** When the store passed 70 % of its bound; null while below it. */
    overSince: timestampMs("over_since"),
  },
  (t) => [
    // Each shard reports its own row.
    primaryKey({ columns: [t.orgId, t.shard] }),
    // Serves the superAdmin's list, largest first.
    index("fleet_store_sizes_bytes_idx").on(t.bytes),
  ],
);
