import type { AlertFacts } from "../../schema/api/alerts";
import type { AlertRuleName, AlertSeverity } from "../../schema/domain";
import type { AlertRow } from "../../schema/tables";
import type { Db } from "../lib/db";

/** An alert a detection rule opened and has not resolved (rule alerts always name their system). */
export type OpenRuleAlertRow = Pick<
  AlertRow,
  "id" | "rule" | "deviceSerial" | "severity" | "lastSeenAt" | "createdAt" | "lostEnergyWh"
> & { systemId: string };

/** The open rule alerts of an organisation (of the listed systems, or all when null). */
export async function listOpenRuleAlerts(db: Db, orgId: string, systemIds: string[] | null) {
  const rows = await db.$client
    .prepare(
      `SELECT id, system_id AS systemId, rule, device_serial AS deviceSerial, severity, last_seen_at AS lastSeenAt,
         created_at AS createdAt, lost_energy_wh AS lostEnergyWh FROM alerts
       WHERE org_id = ? AND resolved = 0 AND open_key IS NOT NULL AND rule <> 'vendor_alarm'
         AND (? IS NULL OR system_id IN (SELECT value FROM json_each(?)))`,
    )
    .bind(orgId, systemIds === null ? null : 1, JSON.stringify(systemIds ?? []))
    .all<OpenRuleAlertRow>();
  return rows.results;
}

export interface RuleAlertInsert {
  id: string;
  orgId: string;
  systemId: string;
  deviceSerial: string | null;
  rule: AlertRuleName;
  title: string;
  message: string;
  facts: AlertFacts | null;
  severity: AlertSeverity;
  /** One open alert per rule, system and device: a concurrent run's insert wins. */
  openKey: string;
  lostEnergyWh: number;
  now: number;
}

export const insertRuleAlert = (db: Db, alert: RuleAlertInsert) =>
  db.$client
    .prepare(
      `INSERT INTO alerts (id, org_id, system_id, provider, provider_alarm_id, device_serial, code, title, message,
         facts, severity, created_at, resolved, rule, open_key, lost_energy_wh, last_seen_at)
       VALUES (?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)
       ON CONFLICT (org_id, open_key) DO NOTHING`,
    )
    .bind(
      alert.id,
      alert.orgId,
      alert.systemId,
      alert.deviceSerial,
      alert.rule,
      alert.title,
      alert.message,
      alert.facts === null ? null : JSON.stringify(alert.facts),
      alert.severity,
      alert.now,
      alert.rule,
      alert.openKey,
      alert.lostEnergyWh,
      alert.now,
    );

/** A repeat of an open alert: its severity, message and facts now, and the energy lost since last seen. */
export const repeatRuleAlert = (
  db: Db,
  orgId: string,
  alertId: string,
  finding: { severity: AlertSeverity; message: string; facts: AlertFacts | null },
  addedWh: number,
  now: number,
  /** The whole condition's loss recounted now, when the rule knows since when it holds. */
  recountedWh: number | null = null,
) =>
  db.$client
    .prepare(
      `UPDATE alerts SET severity = ?, message = ?, facts = ?, last_seen_at = max(coalesce(last_seen_at, 0), ?),
         lost_energy_wh = max(coalesce(lost_energy_wh, 0) + ?, coalesce(?, 0)) WHERE org_id = ? AND id = ? AND resolved = 0`,
    )
    .bind(
      finding.severity,
      finding.message,
      finding.facts === null ? null : JSON.stringify(finding.facts),
      now,
      addedWh,
      recountedWh,
      orgId,
      alertId,
    );

export const resolveRuleAlert = (db: Db, orgId: string, alertId: string, now: number) =>
  db.$client
    .prepare(
      `UPDATE alerts SET resolved = 1, resolved_at = ?, resolved_by = NULL, open_key = NULL
       WHERE org_id = ? AND id = ? AND resolved = 0`,
    )
    .bind(now, orgId, alertId);

/**
 * A history entry by a rule (its facts, and the same in English as its note), written only if its
 * alert exists (a concurrent run may have won the insert).
 */
export const insertRuleEvent = (
  db: Db,
  orgId: string,
  alertId: string,
  kind: string,
  rule: AlertRuleName,
  entry: { note: string; facts: AlertFacts | null },
  at: number,
) =>
  db.$client
    .prepare(
      `INSERT INTO alert_events (id, alert_id, org_id, kind, actor_id, rule, note, facts, created_at)
       SELECT ?, ?, ?, ?, NULL, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM alerts WHERE id = ?)`,
    )
    .bind(
      crypto.randomUUID(),
      alertId,
      orgId,
      kind,
      rule,
      entry.note,
      entry.facts === null ? null : JSON.stringify(entry.facts),
      at,
      alertId,
    );
