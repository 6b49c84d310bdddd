import { z } from "zod";
import { alertEventKinds, alertRuleNames, alertSeverities } from "../domain";
import { exportFormatSchema } from "./exports";
import { providerIdSchema } from "./providers";

export const alertsQuerySchema = z.strictObject({
  state: z.enum(["open", "resolved", "all"]).default("all"),
  severity: z.enum(alertSeverities).optional(),
  /** JSON only: the CSV export holds every alert the filters match. */
  limit: z.coerce.number().int().min(1).max(500).default(100),
  /** newest: newest first; lostEnergy: most energy lost first (then newest). */
  sort: z.enum(["newest", "lostEnergy"]).default("newest"),
  format: exportFormatSchema,
});
export type AlertsQuery = z.infer<typeof alertsQuerySchema>;

export const alertSchema = z.object({
  id: z.string(),
  title: z.string(),
  message: z.string(),
  severity: z.enum(alertSeverities),
  createdAt: z.string(),
  /** One flag for both SPEC readers (the sidebar's `resolved`, the panel's `isResolved`). */
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
      note: z.string().nullable(),
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
