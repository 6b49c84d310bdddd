import type { AlertEventKind, AlertRuleName } from "../../schema/domain";
import type { SqlRow } from "../../schema/sql-row";
import type { alertEvents, users } from "../../schema/tables";
import type { Db } from "../lib/db";

/** An event with its actor's name (LEFT JOIN users: null when the actor is gone or was the system). */
export type AlertEventRow = Pick<
  SqlRow<typeof alertEvents>,
  "alert_id" | "kind" | "actor_id" | "rule" | "note" | "facts" | "created_at"
> & { actor_name: SqlRow<typeof users>["full_name"] | null };

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

/**
 * The history of the alerts `alertIdsSql` selects, oldest first (served by
 * alert_events_alert_created_idx); binds the organisation, then what `alertIdsSql` binds.
 */
export const alertEventsOfSql = (alertIdsSql: string) =>
  `SELECT e.alert_id, e.kind, e.actor_id, u.full_name AS actor_name, e.rule, e.note, e.facts, e.created_at
   FROM alert_events e LEFT JOIN users u ON u.id = e.actor_id
   WHERE e.org_id = ? AND e.alert_id IN (${alertIdsSql})
   ORDER BY e.alert_id, e.created_at, e.rowid`;

/** The history of the listed alerts, oldest first. */
export async function listAlertEvents(db: Db, orgId: string, alertIds: string[]): Promise<AlertEventRow[]> {
  if (alertIds.length === 0) return [];
  const rows = await db.$client
    .prepare(alertEventsOfSql("SELECT value FROM json_each(?)"))
    .bind(orgId, JSON.stringify(alertIds))
    .all<AlertEventRow>();
  return rows.results;
}
