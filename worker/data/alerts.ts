import type { AlertsQuery } from "../../schema/api/alerts";
import type { AlertSeverity } from "../../schema/domain";
import type { Db } from "../lib/db";

export interface AlertRowWithNames {
  id: string;
  title: string;
  message: string;
  severity: AlertSeverity;
  created_at: number;
  resolved: number;
  resolved_at: number | null;
  provider: string | null;
  code: string | null;
  device_serial: string | null;
  system_id: string | null;
  system_name: string | null;
  site_id: string | null;
  site_name: string | null;
}

const SELECT_WITH_NAMES = `
  SELECT a.id, a.title, a.message, a.severity, a.created_at, a.resolved, a.resolved_at, a.provider, a.code,
    a.device_serial, a.system_id, ms.name AS system_name, s.id AS site_id, s.name AS site_name
  FROM alerts a
  LEFT JOIN monitoring_systems ms ON ms.id = a.system_id AND ms.org_id = a.org_id
  LEFT JOIN sites s ON s.id = ms.site_id AND s.org_id = a.org_id`;

/** Newest first; served by alerts_org_resolved_created_idx. */
export async function listAlerts(db: Db, orgId: string, query: AlertsQuery) {
  const conditions = ["a.org_id = ?"];
  const params: unknown[] = [orgId];
  if (query.state !== "all") {
    conditions.push("a.resolved = ?");
    params.push(query.state === "resolved" ? 1 : 0);
  }
  if (query.severity) {
    conditions.push("a.severity = ?");
    params.push(query.severity);
  }
  const rows = await db.$client
    .prepare(
      `${SELECT_WITH_NAMES} WHERE ${conditions.join(" AND ")} ORDER BY a.created_at DESC, a.id LIMIT ?`,
    )
    .bind(...params, query.limit)
    .all<AlertRowWithNames>();
  return rows.results;
}

export async function findAlert(db: Db, orgId: string, alertId: string) {
  return db.$client
    .prepare(`${SELECT_WITH_NAMES} WHERE a.org_id = ? AND a.id = ?`)
    .bind(orgId, alertId)
    .first<AlertRowWithNames>();
}

export async function countOpenAlerts(db: Db, orgId: string) {
  const rows = await db.$client
    .prepare("SELECT severity, count(*) AS n FROM alerts WHERE org_id = ? AND resolved = 0 GROUP BY severity")
    .bind(orgId)
    .all<{ severity: AlertSeverity; n: number }>();
  return rows.results;
}

export const setAlertResolved = (
  db: Db,
  orgId: string,
  alertId: string,
  resolved: boolean,
  by: string,
  now: number,
) =>
  db.$client
    .prepare("UPDATE alerts SET resolved = ?, resolved_at = ?, resolved_by = ? WHERE org_id = ? AND id = ?")
    .bind(resolved ? 1 : 0, resolved ? now : null, resolved ? by : null, orgId, alertId);
