import type { AlertEventKind, AlertRuleName } from "../../schema/domain";
import type { Db } from "../lib/db";

export interface AlertEventRow {
  alert_id: string;
  kind: AlertEventKind;
  actor_id: string | null;
  actor_name: string | null;
  rule: AlertRuleName | null;
  note: string | null;
  /** JSON of a rule entry's facts, or null. */
  facts: string | null;
  created_at: number;
}

export interface NewAlertEvent {
  orgId: string;
  alertId: string;
  kind: AlertEventKind;
  actorId: string | null;
  rule: AlertRuleName | null;
  note: string | null;
  at: number;
}

export const insertAlertEvent = (db: Db, event: NewAlertEvent) =>
  db.$client
    .prepare(
      "INSERT INTO alert_events (id, alert_id, org_id, kind, actor_id, rule, note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(
      crypto.randomUUID(),
      event.alertId,
      event.orgId,
      event.kind,
      event.actorId,
      event.rule,
      event.note,
      event.at,
    );

/** The history of the listed alerts, oldest first; served by alert_events_alert_created_idx. */
export async function listAlertEvents(db: Db, orgId: string, alertIds: string[]): Promise<AlertEventRow[]> {
  if (alertIds.length === 0) return [];
  const rows = await db.$client
    .prepare(
      `SELECT e.alert_id, e.kind, e.actor_id, u.full_name AS actor_name, e.rule, e.note, e.facts, e.created_at
       FROM alert_events e LEFT JOIN users u ON u.id = e.actor_id
       WHERE e.org_id = ? AND e.alert_id IN (SELECT value FROM json_each(?))
       ORDER BY e.alert_id, e.created_at, e.rowid`,
    )
    .bind(orgId, JSON.stringify(alertIds))
    .all<AlertEventRow>();
  return rows.results;
}
