import type { Alert, AlertSummary, AlertsQuery } from "../../schema/api/alerts";
import type { ProviderId } from "../../schema/api/providers";
import {
  type AlertRowWithNames,
  countOpenAlerts,
  findAlert,
  listAlerts,
  setAlertResolved,
} from "../data/alerts";
import { runBatch } from "../lib/db";
import { notFound } from "../lib/errors";
import { auditEntry } from "./audit";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";
import { fleetStoreOf } from "./fleet-store";

const toAlert = (row: AlertRowWithNames): Alert => ({
  id: row.id,
  title: row.title,
  message: row.message,
  severity: row.severity,
  createdAt: new Date(row.created_at).toISOString(),
  resolved: row.resolved === 1,
  resolvedAt: row.resolved_at === null ? null : new Date(row.resolved_at).toISOString(),
  provider: row.provider as ProviderId | null,
  code: row.code,
  deviceSerial: row.device_serial,
  systemId: row.system_id,
  systemName: row.system_name,
  siteId: row.site_id,
  siteName: row.site_name,
});

export async function getAlerts(ctx: UserContext, query: AlertsQuery): Promise<Alert[]> {
  const org = authorizeOrgAction(ctx, "org:read");
  return (await listAlerts(org.db, org.user.orgId, query)).map(toAlert);
}

export async function getAlertSummary(ctx: UserContext): Promise<AlertSummary> {
  const org = authorizeOrgAction(ctx, "org:read");
  const counts = await countOpenAlerts(org.db, org.user.orgId);
  const of = (severity: string) => counts.find((c) => c.severity === severity)?.n ?? 0;
  return {
    open: counts.reduce((n, c) => n + c.n, 0),
    critical: of("critical"),
    warning: of("warning"),
    info: of("info"),
  };
}

/** Resolves or reopens an alert by hand; the organisation's sockets hear the new count. */
export async function updateAlert(ctx: UserContext, alertId: string, resolved: boolean): Promise<Alert> {
  const org = authorizeOrgAction(ctx, "alerts:manage");
  const alert = await findAlert(org.db, org.user.orgId, alertId);
  if (!alert) throw notFound("Alert");
  await runBatch(org.db, [
    setAlertResolved(org.db, org.user.orgId, alertId, resolved, org.user.id, org.now),
    auditEntry(org, {
      orgId: org.user.orgId,
      actorId: org.user.id,
      actorEmail: org.user.email,
      action: resolved ? "alert.resolve" : "alert.reopen",
      targetType: "alert",
      targetId: alertId,
      details: { title: alert.title },
    }),
  ]);
  const summary = await getAlertSummary(org);
  try {
    await fleetStoreOf(org).publish(org.user.orgId, [
      { type: "alerts_changed", data: { openCount: summary.open } },
    ]);
  } catch {
    // The change is stored; live clients catch up on their next refresh.
  }
  const updated = await findAlert(org.db, org.user.orgId, alertId);
  if (!updated) throw notFound("Alert");
  return toAlert(updated);
}
