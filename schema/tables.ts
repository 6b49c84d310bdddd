import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { MemberPermission, Role } from "./roles";

/** Epoch milliseconds; every timestamp column is UTC. */
const timestampMs = (name: string) => integer(name, { mode: "number" });

export const organizations = sqliteTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: timestampMs("created_at").notNull(),
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
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    // Serves member lists of one organisation.
    index("users_org_idx").on(t.orgId),
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
  ],
);

export const loginFailures = sqliteTable(
  "login_failures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    failedAt: timestampMs("failed_at").notNull(),
  },
  (t) => [
    // Serves the per-email count of failures inside the throttle window.
    index("login_failures_email_idx").on(t.email, t.failedAt),
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
