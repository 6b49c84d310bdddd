import { getPosition } from "suncalc";
import type { AlertRule } from "../../../schema/api/alert-rules";
import type { AlertFacts } from "../../../schema/api/alerts";
import type { AlertRuleName, AlertSeverity } from "../../../schema/domain";
import { factsText } from "./facts";

/*
 * Sunfleet's own fault detection, as pure functions of one system's recent data. Each rule answers
 * whether its condition holds now, since when, whether it has lasted past the rule's delay, and
 * the energy lost over any interval of it (expected minus actual). The service
 * (worker/engines/detection.ts) turns these findings into alerts.
 */

export const STEP_MS = 5 * 60_000;
const MINUTE_MS = 60_000;
/** A point stands for the power until the next one, for at most this long. */
const POINT_VALID_MS = 10 * 60_000;
/** The sun must be this high at the plant for a silent plant to count as lost. */
export const DAYLIGHT_ELEVATION_DEG = 5;
/** Communication lost turns critical after this many daylight minutes. */
export const COMMUNICATION_CRITICAL_MINUTES = 240;
/** Without coordinates daylight is unknown: only a gap this long counts. */
export const NO_PLACE_GAP_MINUTES = 720;
/** No production is only checked while expected power is above this share of capacity. */
export const NO_PRODUCTION_EXPECTED_PCT = 10;
/** Underperformance is only judged over points with more than this on the panels, W/m². */
export const UNDERPERFORMANCE_MIN_POA = 200;

export interface SystemInput {
  capacityW: number | null;
  latitude: number | null;
  longitude: number | null;
  lastDataAt: number | null;
  /** [time ms, power W], oldest first. */
  points: [number, number | null][];
  /** [time ms, power W, offline 0/1], oldest first. */
  inverters: { serial: string; points: [number, number | null, number][] }[];
}

/**
 * What the one expected-power model (worker/domain/solar/pv-model.ts) gives for the system at an
 * instant: its expected AC power (W) and the light on its panels (W/m²); null when the weather is
 * not known yet.
 */
export type Expectation = (at: number) => { powerW: number; poaWm2: number } | null;

export interface Finding {
  rule: Exclude<AlertRuleName, "vendor_alarm">;
  deviceSerial: string | null;
  /** The condition holds at the newest data. */
  holds: boolean;
  /** It has held past the rule's delay: an alert is raised. */
  raised: boolean;
  severity: AlertSeverity;
  /** When the current run of the condition began (epoch ms); null when it does not hold. */
  since: number | null;
  title: string;
  /** What it found, as data; `message` is the same in English. */
  facts: AlertFacts | null;
  message: string;
  /** Energy lost (Wh) over [from, to) of the condition. */
  lostWh: (from: number, to: number) => number;
}

const none = (rule: Finding["rule"], deviceSerial: string | null = null): Finding => ({
  rule,
  deviceSerial,
  holds: false,
  raised: false,
  severity: "warning",
  since: null,
  title: "",
  facts: null,
  message: "",
  lostWh: () => 0,
});

export const sunElevation = (latitude: number, longitude: number, at: number) =>
  getPosition(new Date(at), latitude, longitude).altitude;

/** The value of the newest point at or before `at` (within POINT_VALID_MS), or undefined. */
function valueAt<P extends [number, ...unknown[]]>(points: P[], at: number): P | undefined {
  let found: P | undefined;
  for (const p of points) {
    if (p[0] > at) break;
    found = p;
  }
  return found && at - found[0] < POINT_VALID_MS ? found : undefined;
}

/** Sums f over 5-minute steps of [from, to), in Wh. */
function integrate(from: number, to: number, powerAt: (at: number) => number): number {
  let wh = 0;
  for (let at = from; at < to; at += STEP_MS) {
    wh += (Math.max(0, powerAt(at)) * Math.min(STEP_MS, to - at)) / 3_600_000;
  }
  return wh;
}

const expectedAt = (expectation: Expectation, at: number) => expectation(at)?.powerW ?? 0;

/** The start of the run of points, ending at the newest, for which `test` holds; null if the newest fails. */
function runStart<P extends [number, ...unknown[]]>(points: P[], test: (p: P) => boolean): number | null {
  let start: number | null = null;
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i] as P;
    if (!test(p)) break;
    start = p[0];
  }
  return start;
}

const iso = (at: number) => new Date(at).toISOString();

/** A finding's facts, and the same in English as its message. */
const worded = (facts: AlertFacts) => ({ facts, message: factsText(facts) });

/**
 * No new data for the rule's delay of daylight (sun above 5° at the plant); critical after 4
 * daylight hours. Its loss is the expected energy while silent, the production being unknown.
 */
export function communicationLost(
  input: SystemInput,
  rule: AlertRule,
  expectation: Expectation,
  now: number,
): Finding {
  const last = input.lastDataAt;
  if (last === null || now <= last) return none("communication_lost");
  const { latitude, longitude } = input;
  const placed = latitude !== null && longitude !== null;
  const daylight = (at: number) =>
    !placed || sunElevation(latitude as number, longitude as number, at) > DAYLIGHT_ELEVATION_DEG;
  let daylightMs = 0;
  for (let at = last; at < now; at += STEP_MS) if (daylight(at)) daylightMs += Math.min(STEP_MS, now - at);
  const minutes = daylightMs / MINUTE_MS;
  const needed = placed ? rule.delayMinutes : Math.max(rule.delayMinutes, NO_PLACE_GAP_MINUTES);
  const holds = minutes >= Math.max(needed, 1);
  if (!holds) return none("communication_lost");
  return {
    rule: "communication_lost",
    deviceSerial: null,
    holds,
    raised: true,
    severity: placed && minutes >= COMMUNICATION_CRITICAL_MINUTES ? "critical" : "warning",
    since: last,
    title: "Communication lost",
    ...worded({ kind: "no_data", since: iso(last), daylightMinutes: Math.round(minutes) }),
    lostWh: (from, to) =>
      integrate(Math.max(from, last), to, (at) => (daylight(at) ? expectedAt(expectation, at) : 0)),
  };
}

/** Power below the threshold (% of capacity) while the model expects over 10 % of capacity; critical. */
export function noProduction(input: SystemInput, rule: AlertRule, expectation: Expectation): Finding {
  const capacity = input.capacityW ?? 0;
  if (capacity <= 0) return none("no_production");
  const threshold = ((rule.thresholdPct ?? 1) / 100) * capacity;
  const since = runStart(
    input.points,
    ([at, power]) =>
      (power ?? 0) < threshold && expectedAt(expectation, at) > (NO_PRODUCTION_EXPECTED_PCT / 100) * capacity,
  );
  if (since === null) return none("no_production");
  const newest = (input.points.at(-1) as [number, number | null])[0];
  return {
    rule: "no_production",
    deviceSerial: null,
    holds: true,
    raised: newest - since >= rule.delayMinutes * MINUTE_MS,
    severity: "critical",
    since,
    title: "No production",
    ...worded({ kind: "no_production", since: iso(since), thresholdPct: rule.thresholdPct ?? 1 }),
    lostWh: (from, to) =>
      integrate(
        from,
        to,
        (at) => expectedAt(expectation, at) - ((valueAt(input.points, at)?.[1] as number) ?? 0),
      ),
  };
}

/**
 * Energy below the threshold (% of expected) over the rule's window (at least 2 h by default),
 * every point of which had more than 200 W/m² on the panels and the window is covered by points.
 */
export function underperformance(
  input: SystemInput,
  rule: AlertRule,
  expectation: Expectation,
  /** Instants another rule explains (no production, a down inverter): left out of the comparison. */
  explained: (at: number) => boolean = () => false,
): Finding {
  const capacity = input.capacityW ?? 0;
  const newest = input.points.at(-1);
  if (capacity <= 0 || !newest) return none("underperformance");
  const windowMs = (rule.windowMinutes ?? 120) * MINUTE_MS;
  const start = newest[0] - windowMs;
  const inWindow = input.points.filter(([at]) => at > start);
  // Covered: a point within 5 minutes of the window's start, then no gap above 10 minutes.
  const first = inWindow[0]?.[0];
  if (first === undefined || first - start > STEP_MS) return none("underperformance");
  let previous = first;
  for (const [at] of inWindow) {
    if (at - previous > POINT_VALID_MS) return none("underperformance");
    previous = at;
  }
  if (inWindow.some(([at]) => (expectation(at)?.poaWm2 ?? 0) <= UNDERPERFORMANCE_MIN_POA)) {
    return none("underperformance");
  }
  const counted = inWindow.filter(([at]) => !explained(at));
  const actual = counted.reduce((sum, [, power]) => sum + (power ?? 0), 0);
  const expected = counted.reduce((sum, [at]) => sum + expectedAt(expectation, at), 0);
  const pct = rule.thresholdPct ?? 80;
  if (expected <= 0 || actual >= (pct / 100) * expected) return none("underperformance");
  return {
    rule: "underperformance",
    deviceSerial: null,
    holds: true,
    raised: true,
    severity: "warning",
    since: first,
    title: "Underperformance",
    ...worded({
      kind: "below_expected",
      actualPct: Math.round((actual / expected) * 100),
      windowMinutes: Math.round(windowMs / MINUTE_MS),
    }),
    lostWh: (from, to) =>
      integrate(
        from,
        to,
        (at) => expectedAt(expectation, at) - ((valueAt(input.points, at)?.[1] as number) ?? 0),
      ),
  };
}

/** Per-instant tests of a system's inverters: their power, the others' mean, whether one is down. */
function inverterTests(input: SystemInput, rule: AlertRule) {
  const n = input.inverters.length;
  const share = (input.capacityW ?? 0) / Math.max(n, 1);
  const threshold = ((rule.thresholdPct ?? 5) / 100) * share;
  const powerOf = (inverter: SystemInput["inverters"][number], at: number) => {
    const p = valueAt(inverter.points, at);
    return p === undefined || p[2] === 1 ? null : (p[1] ?? 0);
  };
  const othersMean = (index: number, at: number) => {
    const others = input.inverters.filter((_, i) => i !== index).map((inv) => powerOf(inv, at) ?? 0);
    return others.reduce((a, b) => a + b, 0) / Math.max(others.length, 1);
  };
  const down = (index: number, at: number) => {
    if (n < 2) return false;
    const own = powerOf(input.inverters[index] as SystemInput["inverters"][number], at);
    return (own === null || own <= 0) && othersMean(index, at) > threshold;
  };
  return { powerOf, othersMean, down };
}

/**
 * One inverter at 0 W or offline while the others produce above the threshold (% of their share
 * of capacity); its loss is the others' mean power minus its own.
 */
export function inverterDown(input: SystemInput, rule: AlertRule): Finding[] {
  const capacity = input.capacityW ?? 0;
  const n = input.inverters.length;
  if (n < 2 || capacity <= 0) return [];
  const { down, othersMean, powerOf } = inverterTests(input, rule);
  const times = input.points.map(([at]) => at);
  return input.inverters.map((inverter, index) => {
    const since = runStart(
      times.map((at) => [at] as [number]),
      ([at]) => down(index, at),
    );
    if (since === null) return none("inverter_down", inverter.serial);
    const newest = times.at(-1) as number;
    return {
      rule: "inverter_down",
      deviceSerial: inverter.serial,
      holds: true,
      raised: newest - since >= rule.delayMinutes * MINUTE_MS,
      severity: "warning",
      since,
      title: "Inverter down",
      ...worded({ kind: "inverter_down", serial: inverter.serial, since: iso(since) }),
      lostWh: (from, to) => integrate(from, to, (at) => othersMean(index, at) - (powerOf(inverter, at) ?? 0)),
    };
  });
}

/**
 * Every rule over one system. Communication lost suppresses the production rules (their
 * findings are left out, so open ones are neither updated nor resolved while it lasts); no
 * production and a down inverter explain low energy, so they suppress underperformance.
 * A disabled rule's finding never holds.
 */
export function evaluateSystem(
  input: SystemInput,
  rules: Record<AlertRuleName, AlertRule>,
  expectation: Expectation,
  now: number,
): { findings: Finding[]; suppressed: Finding["rule"][] } {
  const enabled = (finding: Finding) =>
    rules[finding.rule].enabled ? finding : none(finding.rule, finding.deviceSerial);
  const lost = enabled(communicationLost(input, rules.communication_lost, expectation, now));
  if (lost.holds) {
    return { findings: [lost], suppressed: ["no_production", "underperformance", "inverter_down"] };
  }
  const noPower = enabled(noProduction(input, rules.no_production, expectation));
  const inverters = inverterDown(input, rules.inverter_down).map(enabled);
  const explained = noPower.holds || inverters.some((f) => f.holds);
  // Instants when no production or a down inverter held are theirs, not underperformance's.
  const floor = ((rules.no_production.thresholdPct ?? 1) / 100) * (input.capacityW ?? 0);
  const { down } = inverterTests(input, rules.inverter_down);
  const explainedAt = (at: number) =>
    (valueAt(input.points, at)?.[1] ?? 0) < floor || input.inverters.some((_, i) => down(i, at));
  const under = explained
    ? none("underperformance")
    : enabled(underperformance(input, rules.underperformance, expectation, explainedAt));
  return {
    findings: [lost, noPower, ...inverters, under],
    suppressed: explained ? ["underperformance"] : [],
  };
}
