import type { AlertRule } from "../../schema/api/alert-rules";
import type { AlertFacts } from "../../schema/api/alerts";
import type { AlertRuleName } from "../../schema/domain";
import type { LiveMessage } from "../../schema/live";
import { loadAlertRules } from "../data/alert-rules";
import { countOpenAlerts } from "../data/alerts";
import { weatherByLocation } from "../data/irradiance";
import { listModelInputs } from "../data/model-inputs";
import { notifyMembersOfAlert } from "../data/notifications";
import {
  insertRuleAlert,
  insertRuleEvent,
  listOpenRuleAlerts,
  type OpenRuleAlertRow,
  repeatRuleAlert,
  resolveRuleAlert,
} from "../data/rule-alerts";
import { factsText } from "../domain/alerts/facts";
import { type Expectation, evaluateSystem, type Finding } from "../domain/alerts/rules";
import { type LearnedModel, pvSystemOf } from "../domain/solar/expectation";
import type { WeatherHour } from "../domain/solar/plane-of-array";
import { expectedSteps, limited, type PvSystem } from "../domain/solar/pv-model";
import type { Env } from "../env";
import type { DetectionSystem } from "../fleet/types";
import { type BatchStatement, type Db, runGroupedBatches } from "../lib/db";
import { fleetStoreFor } from "../lib/fleet-store";
import { yieldTurn } from "../lib/yield-turn";

const HOUR_MS = 3_600_000;
const STEP_MS = 5 * 60_000;
const MINUTE_MS = 60_000;
const DETECTED_RULES = ["communication_lost", "no_production", "underperformance", "inverter_down"] as const;

/** Systems evaluated between turns of the event loop (~20 ms of rules at most). */
const SYSTEMS_PER_TURN = 500;
/**
 * D1 statements per batch of a run's writes: a fleet-wide outage opens thousands of alerts in one
 * run, and one transaction of them all would run long. An alert's statements share a batch.
 */
export const DETECTION_STATEMENTS_PER_BATCH = 300;

export interface DetectionRun {
  systems: number;
  opened: number;
  updated: number;
  resolved: number;
}

/**
 * What detection needs of the organisation's fleet store: its systems' recent data, and its
 * sockets for the open count. Called in the worker it is the store reached by RPC; the store's
 * own alarm passes itself.
 */
export interface DetectionFleet {
  detectionInput(systemIds: string[] | null, fromMs: number, toMs: number): Promise<DetectionSystem[]>;
  /** What the systems' own days taught the expected-power model. */
  learnedModels(systemIds: string[]): Promise<(LearnedModel & { systemId: string })[]>;
  publish(messages: LiveMessage[]): Promise<unknown>;
}

/** The organisation's fleet store over RPC (`orgId` from a D1 row, as fleetStoreFor requires). */
export function fleetOverRpc(env: Env, orgId: string): DetectionFleet {
  const store = fleetStoreFor(env, orgId);
  return {
    // RPC answers lose tuple types; the rows are the store's DetectionSystem values.
    detectionInput: async (systemIds, fromMs, toMs) =>
      (await store.detectionInput(orgId, systemIds, fromMs, toMs)) as unknown as DetectionSystem[],
    learnedModels: (systemIds) => store.learnedModels(orgId, systemIds),
    publish: (messages) => store.publish(orgId, messages),
  };
}

export interface DetectionDeps {
  db: Db;
  env: Env;
  /** The organisation's fleet store; over RPC when not given. */
  fleet?: DetectionFleet;
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

/**
 * Each system's expectation (the one model, worker/domain/solar/pv-model.ts) over [from, to]:
 * its effective orientation and AC limit from D1, what its days taught from the fleet store, and
 * its place's weather hours in one D1 read. A system without a model or weather expects nothing.
 */
async function expectationsOf(
  db: Db,
  fleet: DetectionFleet,
  orgId: string,
  systems: DetectionSystem[],
  fromMs: number,
  toMs: number,
): Promise<Map<string, Expectation>> {
  const ids = systems.map((system) => system.systemId);
  const [inputs, learned] = await Promise.all([listModelInputs(db, orgId, ids), fleet.learnedModels(ids)]);
  const learnedById = new Map(learned.map((model) => [model.systemId, model]));
  const keys = [...new Set(inputs.flatMap((input) => (input.locationKey ? [input.locationKey] : [])))];
  const weather = await weatherByLocation(db, keys, Math.floor(fromMs / HOUR_MS) * HOUR_MS, toMs);
  const expectations = new Map<string, Expectation>();
  for (const input of inputs) {
    const model = pvSystemOf(input, learnedById.get(input.systemId) ?? null);
    const hours = input.locationKey ? weather.get(input.locationKey) : undefined;
    if (model && hours) expectations.set(input.systemId, expectationOf(model, hours));
  }
  return expectations;
}

/** The model's 5-minute step holding an instant, each hour's steps worked out once. */
function expectationOf(model: PvSystem, hours: Map<number, WeatherHour>): Expectation {
  const stepsByHour = new Map<number, ReturnType<typeof expectedSteps>>();
  return (at) => {
    const hourStart = Math.floor(at / HOUR_MS) * HOUR_MS;
    const hour = hours.get(hourStart);
    if (!hour) return null;
    let steps = stepsByHour.get(hourStart);
    if (!steps) {
      steps = expectedSteps(model, hour);
      stepsByHour.set(hourStart, steps);
    }
    const step = steps[Math.min(steps.length - 1, Math.floor((at - hourStart) / STEP_MS))];
    return step ? { powerW: limited(model, step.powerW), poaWm2: step.poaWm2 } : null;
  };
}

/**
 * Runs the detection rules over an organisation's systems (all, or the listed ones) at `now`:
 * raises an alert for each finding past its delay (one open alert per system, rule and device;
 * a repeat updates it and adds the energy lost since it was last seen), and resolves those whose
 * condition has been gone for the rule's clearMinutes. Reads: the rules, the fleet store's
 * input, the systems' expectations and the open alerts; writes in batches of at most
 * DETECTION_STATEMENTS_PER_BATCH statements (each alert's together); the sockets hear of any change.
 * This is the one evaluation, whether a stored page or the store's schedule runs it.
 */
export async function detectAlerts(
  deps: DetectionDeps,
  orgId: string,
  options: { now: number; systemIds?: string[] },
): Promise<DetectionRun> {
  const { db } = deps;
  const fleet = deps.fleet ?? fleetOverRpc(deps.env, orgId);
  const { now } = options;
  const systemIds = options.systemIds ?? null;
  const run: DetectionRun = { systems: 0, opened: 0, updated: 0, resolved: 0 };
  if (systemIds !== null && systemIds.length === 0) return run;
  const rules = await loadAlertRules(db, orgId);
  const from = now - lookbackMs(rules);
  const systems = await fleet.detectionInput(systemIds, from, now);
  run.systems = systems.length;
  if (systems.length === 0) return run;
  const [expectations, open] = await Promise.all([
    expectationsOf(db, fleet, orgId, systems, from - HOUR_MS, now),
    listOpenRuleAlerts(db, orgId, systemIds),
  ]);
  const openByKey = new Map(open.map((a) => [openKey(a.rule, a.systemId, a.deviceSerial), a]));

  const statements: BatchStatement[][] = [];
  const seen = new Set<string>();
  let severityChanged = false;
  for (const [index, system] of systems.entries()) {
    // A turn of the event loop now and then: in a fleet store, its reads and pages come between.
    if (index > 0 && index % SYSTEMS_PER_TURN === 0) await yieldTurn();
    const expectation: Expectation = expectations.get(system.systemId) ?? (() => null);
    const { findings, suppressed } = evaluateSystem(system, rules, expectation, now);
    for (const finding of findings) {
      const key = openKey(finding.rule, system.systemId, finding.deviceSerial);
      seen.add(key);
      const alert = openByKey.get(key);
      if (finding.holds && alert) {
        statements.push(updateStatements(db, orgId, alert, finding, now, from));
        run.updated++;
        if (finding.severity !== alert.severity) severityChanged = true;
      } else if (finding.raised) {
        statements.push(openStatements(db, orgId, system.systemId, finding, now));
        run.opened++;
      } else if (!finding.holds && alert && !suppressed.includes(finding.rule)) {
        if (resolveDue(alert, rules[finding.rule], now)) {
          statements.push(resolveStatements(db, orgId, alert, now));
          run.resolved++;
        }
      }
    }
    // Open alerts with no finding this run: an inverter gone from the system, a suppressed rule.
    for (const alert of open) {
      if (alert.systemId !== system.systemId) continue;
      const key = openKey(alert.rule, alert.systemId, alert.deviceSerial);
      if (seen.has(key) || suppressed.includes(alert.rule as Finding["rule"])) continue;
      if (
        DETECTED_RULES.includes(alert.rule as Finding["rule"]) &&
        resolveDue(alert, rules[alert.rule], now)
      ) {
        statements.push(resolveStatements(db, orgId, alert, now));
        run.resolved++;
      }
    }
  }
  if (statements.length === 0) return run;
  await runGroupedBatches(db, statements, DETECTION_STATEMENTS_PER_BATCH);
  // The sockets hear of changes to the open alerts' count or severities, not of every repeat.
  if (run.opened > 0 || run.resolved > 0 || severityChanged) await publishOpenCount(db, fleet, orgId);
  return run;
}

const resolveDue = (alert: OpenRuleAlertRow, rule: AlertRule, now: number) =>
  now - (alert.lastSeenAt ?? alert.createdAt) >= rule.clearMinutes * MINUTE_MS;

function openStatements(db: Db, orgId: string, systemId: string, finding: Finding, now: number) {
  const id = crypto.randomUUID();
  const lostWh = finding.lostWh(finding.since ?? now, now);
  const statements: BatchStatement[] = [
    insertRuleAlert(db, {
      id,
      orgId,
      systemId,
      deviceSerial: finding.deviceSerial,
      rule: finding.rule,
      title: finding.title,
      message: finding.message,
      facts: finding.facts,
      severity: finding.severity,
      openKey: openKey(finding.rule, systemId, finding.deviceSerial),
      lostEnergyWh: lostWh,
      now,
    }),
    insertRuleEvent(
      db,
      orgId,
      id,
      "opened",
      finding.rule,
      { note: finding.message, facts: finding.facts },
      now,
    ),
  ];
  if (finding.severity !== "info") {
    statements.push(
      notifyMembersOfAlert(db, orgId, id, "alert_opened", finding.title, finding.severity, now),
    );
  }
  return statements;
}

function updateStatements(
  db: Db,
  orgId: string,
  alert: OpenRuleAlertRow,
  finding: Finding,
  now: number,
  weatherFrom: number,
) {
  const lastSeen = alert.lastSeenAt ?? alert.createdAt;
  const addedWh = now > lastSeen ? finding.lostWh(lastSeen, now) : 0;
  // A condition that started inside the window the weather was read for is recounted from its
  // start as well: hours whose weather came after they were first counted (a plant silent before
  // it was connected, the weather backfilled behind its history) count once it is there, instead
  // of staying at the nothing they were worth without it. The larger of the two is kept.
  const recountedWh =
    finding.since !== null && finding.since >= weatherFrom ? finding.lostWh(finding.since, now) : null;
  const statements: BatchStatement[] = [
    repeatRuleAlert(db, orgId, alert.id, finding, addedWh, now, recountedWh),
  ];
  // The history tells what changed, not every repeat.
  if (finding.severity !== alert.severity) {
    statements.push(
      insertRuleEvent(db, orgId, alert.id, "updated", finding.rule, worded(changed(alert, finding)), now),
    );
  }
  return statements;
}

/** A rule's history entry: its facts, and the same in English as its note. */
const worded = (facts: AlertFacts) => ({ note: factsText(facts), facts });

const changed = (alert: OpenRuleAlertRow, finding: Finding): AlertFacts => ({
  kind: "severity_changed",
  from: alert.severity,
  to: finding.severity,
});

function resolveStatements(db: Db, orgId: string, alert: OpenRuleAlertRow, now: number) {
  const statements: BatchStatement[] = [
    resolveRuleAlert(db, orgId, alert.id, now),
    insertRuleEvent(db, orgId, alert.id, "resolved", alert.rule, worded({ kind: "condition_gone" }), now),
  ];
  if (alert.severity === "critical") {
    const title = alert.rule.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
    statements.push(
      notifyMembersOfAlert(db, orgId, alert.id, "alert_resolved", `${title} resolved`, "critical", now),
    );
  }
  return statements;
}

/** The live message telling an organisation's sockets its open alert count. */
export async function openCountMessage(db: Db, orgId: string): Promise<LiveMessage> {
  const counts = await countOpenAlerts(db, orgId);
  return { type: "alerts_changed", data: { openCount: counts.reduce((n, c) => n + c.n, 0) } };
}

/** Tells the organisation's sockets the open count; a failure leaves the alerts stored. */
async function publishOpenCount(db: Db, fleet: DetectionFleet, orgId: string) {
  try {
    await fleet.publish([await openCountMessage(db, orgId)]);
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
