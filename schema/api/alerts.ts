import { z } from "zod";
import { alertSeverities } from "../domain";
import { providerIdSchema } from "./providers";

export const alertsQuerySchema = z.strictObject({
  state: z.enum(["open", "resolved", "all"]).default("all"),
  severity: z.enum(alertSeverities).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
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
