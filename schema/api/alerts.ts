import { z } from "zod";
import { currencyCodes } from "../currencies";
import { alertEventKinds, alertRuleNames, alertSeverities } from "../domain";
import { exportFormatSchema } from "./exports";
import { providerIdSchema } from "./providers";

export const alertsQuerySchema = z.strictObject({
  state: z.enum(["open", "resolved", "all"]).default("all"),
  severity: z.enum(alertSeverities).optional(),
  /** JSON only: the page size when `pageSize` is not given (the CSV export holds every alert the filters match). */
  limit: z.coerce.number().int().min(1).max(500).default(100),
  /** 1-based; a page past the last is an empty list. */
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).optional(),
  /** newest: newest first; lostEnergy: most energy lost first (then newest). */
  sort: z.enum(["newest", "lostEnergy"]).default("newest"),
  /** Finds alerts by title, site or system name, the system's vendor id or the device serial (case-insensitive). */
  q: z.string().trim().max(100).default(""),
  provider: providerIdSchema.optional(),
  /** The alerts of one site's systems. */
  siteId: z.string().min(1).max(64).optional(),
  format: exportFormatSchema,
});
export type AlertsQuery = z.infer<typeof alertsQuerySchema>;

/**
 * What a detection rule found, as data, so each reader words it in their own language and time
 * zone; `message` and history notes carry the same in English. Times are ISO 8601 (UTC).
 */
export const alertFactsSchema = z.discriminatedUnion("kind", [
  /** Communication lost: no data since `since`, for this many minutes of daylight. */
  z.object({ kind: z.literal("no_data"), since: z.string(), daylightMinutes: z.number() }),
  /** No production: below `thresholdPct` % of capacity since `since` while irradiance expects more. */
  z.object({ kind: z.literal("no_production"), since: z.string(), thresholdPct: z.number() }),
  /** Underperformance: `actualPct` % of the expected energy over the last `windowMinutes`. */
  z.object({ kind: z.literal("below_expected"), actualPct: z.number(), windowMinutes: z.number() }),
  /** One inverter produces nothing since `since` while the others produce. */
  z.object({ kind: z.literal("inverter_down"), serial: z.string(), since: z.string() }),
  /** History: the rule changed the alert's severity. */
  z.object({
    kind: z.literal("severity_changed"),
    from: z.enum(alertSeverities),
    to: z.enum(alertSeverities),
  }),
  /** History: the condition cleared for the rule's clear time, so the alert resolved. */
  z.object({ kind: z.literal("condition_gone") }),
]);
export type AlertFacts = z.infer<typeof alertFactsSchema>;

export const alertSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** In English; `facts` holds the same as data for a Sunfleet rule's alert. */
  message: z.string(),
  facts: alertFactsSchema.nullable(),
  severity: z.enum(alertSeverities),
  createdAt: z.string(),
  /** One flag for both of the client's readers (the sidebar's `resolved`, the panel's `isResolved`). */
  resolved: z.boolean(),
  resolvedAt: z.string().nullable(),
  provider: providerIdSchema.nullable(),
  code: z.string().nullable(),
  deviceSerial: z.string().nullable(),
  systemId: z.string().nullable(),
  systemName: z.string().nullable(),
  siteId: z.string().nullable(),
  siteName: z.string().nullable(),
  rule: z.enum(alertRuleNames),
  /** Expected minus actual energy while open; null for vendor alarms without an estimate. */
  lostEnergyKwh: z.number().nullable(),
  /**
   * The lost energy at the price in force on the day the alert opened (its site's tariff, else the
   * organisation's default), in `currency`; null without lost energy or a price.
   */
  lostValue: z.number().nullable(),
  currency: z.enum(currencyCodes).nullable(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  /** The member it is assigned to (user id), or null. */
  assignedTo: z.string().nullable(),
  history: z.array(
    z.object({
      kind: z.enum(alertEventKinds),
      at: z.string(),
      /** The member who did it; null when a rule or the vendor did. */
      actorId: z.string().nullable(),
      actorName: z.string().nullable(),
      /** The rule when no member did it. */
      rule: z.enum(alertRuleNames).nullable(),
      /** A member's note as typed, or a rule's entry in English (with `facts` as data). */
      note: z.string().nullable(),
      facts: alertFactsSchema.nullable(),
    }),
  ),
});
export type Alert = z.infer<typeof alertSchema>;

export const alertSummarySchema = z.object({
  open: z.number(),
  critical: z.number(),
  warning: z.number(),
  info: z.number(),
});
export type AlertSummary = z.infer<typeof alertSummarySchema>;

export const alertPatchSchema = z.strictObject({ resolved: z.boolean() });

const noteSchema = z.string().trim().max(500);
export const alertNoteSchema = z.strictObject({ note: noteSchema.optional() });
export type AlertNote = z.infer<typeof alertNoteSchema>;
export const alertAssignSchema = z.strictObject({ userId: z.string().min(1).max(64).nullable() });
export type AlertAssign = z.infer<typeof alertAssignSchema>;
