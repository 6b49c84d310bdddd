/** Value sets stored in D1 and shown by the client: the one source for each. */
export const systemStates = ["online", "offline", "alarm"] as const;
export type SystemState = (typeof systemStates)[number];

export const alertSeverities = ["critical", "warning", "info"] as const;
export type AlertSeverity = (typeof alertSeverities)[number];

export const connectionStatuses = ["active", "needs_attention"] as const;
export type ConnectionStatus = (typeof connectionStatuses)[number];

export const syncOutcomes = ["running", "success", "partial", "failed"] as const;
export type SyncOutcome = (typeof syncOutcomes)[number];

/** `history`: the backfill a successful run starts after a new connection or a gap (worker/sync/history-run.ts). */
export const syncTriggers = ["cron", "manual", "save", "history"] as const;
export type SyncTrigger = (typeof syncTriggers)[number];

export const alertRuleNames = [
  "communication_lost",
  "no_production",
  "underperformance",
  "inverter_down",
  "vendor_alarm",
] as const;
export type AlertRuleName = (typeof alertRuleNames)[number];

export const alertEventKinds = [
  "opened",
  "updated",
  "acknowledged",
  "assigned",
  "resolved",
  "reopened",
] as const;
export type AlertEventKind = (typeof alertEventKinds)[number];

export const notificationKinds = ["alert_opened", "alert_resolved", "sync_finished"] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** Where a site's place came from: a verified address, the vendor's coordinates, the vendor's address geocoded. */
export const siteLocationSources = ["verified", "vendor", "geocoded"] as const;
export type SiteLocationSource = (typeof siteLocationSources)[number];

/** Interface languages a user may choose (saved in their preferences). */
export const languages = ["en", "es", "fr"] as const;
export type Language = (typeof languages)[number];
