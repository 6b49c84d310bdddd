import type { AlertRule } from "../../schema/api/alert-rules";
import type { AlertRuleName, AlertSeverity } from "../../schema/domain";
import { countOpenAlerts } from "../data/alerts";
import type { Env } from "../env";
import type { DetectionSystem } from "../fleet/data/detection";
import { evaluateSystem, type Finding, type Irradiance } from "../lib/alerts/rules";
import { type BatchStatement, type Db, runBatch } from "../lib/db";
import { loadAlertRules } from "./alert-rules";
import { fleetStoreFor } from "./fleet-store";

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const DETECTED_RULES = ["communication_lost", "no_production", "underperformance", "inverter_down"] as const;

interface OpenAlertRow {
  id: string;
  system_id: string;
  rule: AlertRuleName;
  device_serial: string | null;
  severity: AlertSeverity;
  last_seen_at: number | null;
  created_at: number;
  lost_energy_wh: number | null;
}

export interface DetectionRun {
  systems: number;
  opened: number;
  updated: number;
  resolved: number;
}

const openKey = (rule: string, systemId: string, serial: string | null) =>
  `${rule}:${systemId}:${serial ?? ""}`;

/** How far back the rules read: the longest window or delay, plus a margin. */
function lookbackMs(rules: Record<AlertRuleName, AlertRule>): number {
  const minutes = Math.max(
    rules.underperformance.windowMinutes ?? 120,
    rules.no_production.delayMinutes,
    rules.inverter_down.delayMinutes,
  );
  return (Math.min(minutes, 1440) + 15) * MINUTE_MS;
}

/** Hourly GHI of the systems' places over [from, to], in one D1 read. */
async function irradianceOf(db: Db, systems: DetectionSystem[], fromMs: number, toMs: number) {
  const keys = [...new Set(systems.flatMap((s) => (s.locationKey ? [s.locationKey] : [])))];
  const byKey = new Map<string, Map<number, number>>();
  if (keys.length === 0) return byKey;
  const rows = await db.$client
    .prepare(
      `SELECT location_key, hour_start, ghi_wm2 FROM irradiance_hourly
       WHERE location_key IN (SELECT value FROM json_each(?)) AND hour_start >= ? AND hour_start <= ?`,
    )
    .bind(JSON.stringify(keys), Math.floor(fromMs / HOUR_MS) * HOUR_MS, toMs)
    .all<{ location_key: string; hour_start: number; ghi_wm2: number }>();
  for (const row of rows.results) {
    const hours = byKey.get(row.location_key) ?? new Map<number, number>();
    hours.set(row.hour_start, row.ghi_wm2);
    byKey.set(row.location_key, hours);
  }
  return byKey;
}

async function openAlertsOf(db: Db, orgId: string, systemIds: string[] | null) {
  const rows = await db.$client
    .prepare(
      `SELECT id, system_id, rule, device_serial, severity, last_seen_at, created_at, lost_energy_wh FROM alerts
       WHERE org_id = ? AND resolved = 0 AND open_key IS NOT NULL AND rule <> 'vendor_alarm'
         AND (? IS NULL OR system_id IN (SELECT value FROM json_each(?)))`,
    )
    .bind(orgId, systemIds === null ? null : 1, JSON.stringify(systemIds ?? []))
    .all<OpenAlertRow>();
  return rows.results;
}

/** A history entry by a rule, written only if its alert exists (a concurrent run may have won the insert). */
const ruleEvent = (
  db: Db,
  orgId: string,
  alertId: string,
  kind: string,
  rule: AlertRuleName,
  note: string,
  at: number,
) =>
  db.$client
    .prepare(
      `INSERT INTO alert_events (id, alert_id, org_id, kind, actor_id, rule, note, created_at)
       SELECT ?, ?, ?, ?, NULL, ?, ?, ? WHERE EXISTS (SELECT 1 FROM alerts WHERE id = ?)`,
    )
    .bind(crypto.randomUUID(), alertId, orgId, kind, rule, note, at, alertId);

/**
 * In-app notifications of an alert for every member of the organisation; a new alert also waits
 * for a real-time e-mail to each member whose preference is on (defaults on without a row).
 */
const notifyMembers = (
  db: Db,
  orgId: string,
  alertId: string,
  kind: "alert_opened" | "alert_resolved",
  title: string,
  severity: AlertSeverity,
  at: number,
) =>
  db.$client
    .prepare(
      `INSERT INTO notifications (id, org_id, user_id, kind, alert_id, title, severity, created_at, email_pending)
       SELECT lower(hex(randomblob(16))), ?, u.id, ?, ?, ?, ?, ?,
         ? = 'alert_opened' AND coalesce(p.realtime_alerts, 1) = 1
       FROM users u LEFT JOIN user_preferences p ON p.user_id = u.id
       WHERE u.org_id = ? AND EXISTS (SELECT 1 FROM alerts WHERE id = ?)`,
    )
    .bind(orgId, kind, alertId, title, severity, at, kind, orgId, alertId);

/**
 * Runs the detection rules over an organisation's systems (all, or the listed ones) at `now`:
 * raises an alert for each finding past its delay (one open alert per system, rule and device;
 * a repeat updates it and adds the energy lost since it was last seen), and resolves those whose
 * condition has been gone for the rule's clearMinutes. Reads: the rules, one fleet-store RPC,
 * the irradiance and the open alerts; writes in one batch; the sockets hear of any change.
 */
export async function detectAlerts(
  deps: { db: Db; env: Env },
  orgId: string,
  options: { now: number; systemIds?: string[] },
): Promise<DetectionRun> {
  const { db, env } = deps;
  const { now } = options;
  const systemIds = options.systemIds ?? null;
  const run: DetectionRun = { systems: 0, opened: 0, updated: 0, resolved: 0 };
  if (systemIds !== null && systemIds.length === 0) return run;
  const rules = await loadAlertRules(db, orgId);
  const from = now - lookbackMs(rules);
  // RPC answers lose tuple types; the rows are the store's DetectionSystem values.
  const systems = (await fleetStoreFor(env, orgId).detectionInput(
    orgId,
    systemIds,
    from,
    now,
  )) as unknown as DetectionSystem[];
  run.systems = systems.length;
  if (systems.length === 0) return run;
  const [irradiance, open] = await Promise.all([
    irradianceOf(db, systems, from - HOUR_MS, now),
    openAlertsOf(db, orgId, systemIds),
  ]);
  const openByKey = new Map(open.map((a) => [openKey(a.rule, a.system_id, a.device_serial), a]));

  const statements: BatchStatement[] = [];
  const seen = new Set<string>();
  let severityChanged = false;
  for (const system of systems) {
    const hours = system.locationKey ? irradiance.get(system.locationKey) : undefined;
    const ghi: Irradiance = (at) => hours?.get(Math.floor(at / HOUR_MS) * HOUR_MS) ?? null;
    const { findings, suppressed } = evaluateSystem(system, rules, ghi, now);
    for (const finding of findings) {
      const key = openKey(finding.rule, system.systemId, finding.deviceSerial);
      seen.add(key);
      const alert = openByKey.get(key);
      if (finding.holds && alert) {
        statements.push(...updateStatements(db, orgId, alert, finding, now));
        run.updated++;
        if (finding.severity !== alert.severity) severityChanged = true;
      } else if (finding.raised) {
        statements.push(...openStatements(db, orgId, system.systemId, finding, now));
        run.opened++;
      } else if (!finding.holds && alert && !suppressed.includes(finding.rule)) {
        if (resolveDue(alert, rules[finding.rule], now)) {
          statements.push(...resolveStatements(db, orgId, alert, now));
          run.resolved++;
        }
      }
    }
    // Open alerts with no finding this run: an inverter gone from the system, a suppressed rule.
    for (const alert of open) {
      if (alert.system_id !== system.systemId) continue;
      const key = openKey(alert.rule, alert.system_id, alert.device_serial);
      if (seen.has(key) || suppressed.includes(alert.rule as Finding["rule"])) continue;
      if (
        DETECTED_RULES.includes(alert.rule as Finding["rule"]) &&
        resolveDue(alert, rules[alert.rule], now)
      ) {
        statements.push(...resolveStatements(db, orgId, alert, now));
        run.resolved++;
      }
    }
  }
  if (statements.length === 0) return run;
  await runBatch(db, statements);
  // The sockets hear of changes to the open alerts' count or severities, not of every repeat.
  if (run.opened > 0 || run.resolved > 0 || severityChanged) await publishOpenCount(deps, orgId);
  return run;
}

const resolveDue = (alert: OpenAlertRow, rule: AlertRule, now: number) =>
  now - (alert.last_seen_at ?? alert.created_at) >= rule.clearMinutes * MINUTE_MS;

function openStatements(db: Db, orgId: string, systemId: string, finding: Finding, now: number) {
  const id = crypto.randomUUID();
  const lostWh = finding.lostWh(finding.since ?? now, now);
  const statements: BatchStatement[] = [
    db.$client
      .prepare(
        `INSERT INTO alerts (id, org_id, system_id, provider, provider_alarm_id, device_serial, code, title, message,
           severity, created_at, resolved, rule, open_key, lost_energy_wh, last_seen_at)
         VALUES (?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)
         ON CONFLICT (org_id, open_key) DO NOTHING`,
      )
      .bind(
        id,
        orgId,
        systemId,
        finding.deviceSerial,
        finding.rule,
        finding.title,
        finding.message,
        finding.severity,
        now,
        finding.rule,
        openKey(finding.rule, systemId, finding.deviceSerial),
        lostWh,
        now,
      ),
    ruleEvent(db, orgId, id, "opened", finding.rule, finding.message, now),
  ];
  if (finding.severity !== "info") {
    statements.push(notifyMembers(db, orgId, id, "alert_opened", finding.title, finding.severity, now));
  }
  return statements;
}

function updateStatements(db: Db, orgId: string, alert: OpenAlertRow, finding: Finding, now: number) {
  const lastSeen = alert.last_seen_at ?? alert.created_at;
  const addedWh = now > lastSeen ? finding.lostWh(lastSeen, now) : 0;
  const statements: BatchStatement[] = [
    db.$client
      .prepare(
        `UPDATE alerts SET severity = ?, message = ?, last_seen_at = max(coalesce(last_seen_at, 0), ?),
           lost_energy_wh = coalesce(lost_energy_wh, 0) + ? WHERE org_id = ? AND id = ? AND resolved = 0`,
      )
      .bind(finding.severity, finding.message, now, addedWh, orgId, alert.id),
  ];
  // The history tells what changed, not every repeat.
  if (finding.severity !== alert.severity) {
    statements.push(
      ruleEvent(
        db,
        orgId,
        alert.id,
        "updated",
        finding.rule,
        `Severity ${alert.severity} → ${finding.severity}`,
        now,
      ),
    );
  }
  return statements;
}

function resolveStatements(db: Db, orgId: string, alert: OpenAlertRow, now: number) {
  const statements: BatchStatement[] = [
    db.$client
      .prepare(
        `UPDATE alerts SET resolved = 1, resolved_at = ?, resolved_by = NULL, open_key = NULL
         WHERE org_id = ? AND id = ? AND resolved = 0`,
      )
      .bind(now, orgId, alert.id),
    ruleEvent(db, orgId, alert.id, "resolved", alert.rule, "Condition gone", now),
  ];
  if (alert.severity === "critical") {
    const title = alert.rule.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
    statements.push(
      notifyMembers(db, orgId, alert.id, "alert_resolved", `${title} resolved`, "critical", now),
    );
  }
  return statements;
}

/** Tells the organisation's sockets the open count; a failure leaves the alerts stored. */
async function publishOpenCount(deps: { db: Db; env: Env }, orgId: string) {
  try {
    const counts = await countOpenAlerts(deps.db, orgId);
    await fleetStoreFor(deps.env, orgId).publish(orgId, [
      { type: "alerts_changed", data: { openCount: counts.reduce((n, c) => n + c.n, 0) } },
    ]);
  } catch {
    // Live clients catch up on their next refresh.
  }
}

/** After a stored page: its systems, never failing the page (a failure is logged). */
export async function detectAfterPage(
  deps: { db: Db; env: Env },
  orgId: string,
  systemIds: string[],
  now: number,
) {
  try {
    await detectAlerts(deps, orgId, { now, systemIds });
  } catch (error) {
    console.error(JSON.stringify({ msg: "detection failed", orgId, error: String(error) }));
  }
}

/** The 5-minute job: every organisation with systems, all its systems (for those that stopped reporting). */
export async function detectAllOrgs(deps: { db: Db; env: Env }, now: number) {
  const totals: DetectionRun = { systems: 0, opened: 0, updated: 0, resolved: 0 };
  let orgIds: string[];
  try {
    const orgs = await deps.db.$client
      .prepare("SELECT DISTINCT org_id FROM monitoring_systems")
      .all<{ org_id: string }>();
    orgIds = orgs.results.map((r) => r.org_id);
  } catch (error) {
    console.error(JSON.stringify({ msg: "detection failed", error: String(error) }));
    return totals;
  }
  for (const org_id of orgIds) {
    try {
      const run = await detectAlerts(deps, org_id, { now });
      totals.systems += run.systems;
      totals.opened += run.opened;
      totals.updated += run.updated;
      totals.resolved += run.resolved;
    } catch (error) {
      console.error(JSON.stringify({ msg: "detection failed", orgId: org_id, error: String(error) }));
    }
  }
  return totals;
}
