import { describe, expect, it } from "vitest";
import { defaultAlertRules } from "../../../schema/api/alert-rules";
import {
  communicationLost,
  evaluateSystem,
  inverterDown,
  noProduction,
  type SystemInput,
  underperformance,
} from "../../../worker/domain/alerts/rules";

const MIN = 60_000;
/** 21 June 2026, UTC; Amsterdam's sun is above 5° from about 04:00 to 19:15 UTC. */
const at = (hhmm: string) => Date.parse(`2026-06-21T${hhmm}:00Z`);
const CAPACITY = 10_000;
/** 10 kW under 800 W/m² on its panels at PVWatts' 0.86 × 0.96: 10,000 × 0.8 × 0.86 × 0.96. */
const EXPECTED = 6604.8;
/** The model's expectation of the 10 kW system with `poa` W/m² on its panels (the rules take it as given). */
const clearSky = (poa: number) => () => ({ poaWm2: poa, powerW: CAPACITY * (poa / 1000) * 0.86 * 0.96 });

/** A system with a point every 5 minutes from `from` to `to` (inclusive) at `power(t)`. */
function system(
  from: string,
  to: string,
  power: (t: number) => number | null,
  extra: Partial<SystemInput> = {},
) {
  const points: [number, number | null][] = [];
  for (let t = at(from); t <= at(to); t += 5 * MIN) points.push([t, power(t)]);
  return {
    capacityW: CAPACITY,
    latitude: 52.37,
    longitude: 4.9,
    lastDataAt: points.at(-1)?.[0] ?? null,
    points,
    inverters: [],
    ...extra,
  } satisfies SystemInput;
}

describe("communication lost", () => {
  const rule = defaultAlertRules.communication_lost;
  it.each([
    // [last data, now, holds, severity]
    ["12:00", "12:55", false, null],
    ["12:00", "13:00", true, "warning"],
    ["12:00", "15:55", true, "warning"],
    ["12:00", "16:00", true, "critical"],
    ["21:00", "23:55", false, null],
    // The sun passes 5° at about 04:00 UTC: only daylight minutes count.
    ["20:30", "04:30", false, null],
    ["20:30", "05:10", true, "warning"],
  ] as const)("last data %s, now %s: holds %s (%s)", (last, now, holds, severity) => {
    const nowMs = at(now) < at(last) ? at(now) + 86_400_000 : at(now);
    const input = system(last, last, () => 5000);
    const finding = communicationLost(input, rule, clearSky(800), nowMs);
    expect(finding.holds).toBe(holds);
    if (severity) expect(finding.severity).toBe(severity);
  });

  it("counts the expected energy of the daylight while silent as lost", () => {
    const finding = communicationLost(
      system("12:00", "12:00", () => 5000),
      rule,
      clearSky(800),
      at("14:00"),
    );
    expect(finding.lostWh(at("12:00"), at("14:00"))).toBeCloseTo(2 * EXPECTED, 0);
  });

  it("waits 12 hours without coordinates, where daylight is unknown", () => {
    const input = system("12:00", "12:00", () => 5000, { latitude: null, longitude: null });
    expect(communicationLost(input, rule, clearSky(0), at("23:55")).holds).toBe(false);
    expect(communicationLost(input, rule, clearSky(0), at("23:55") + 10 * MIN).holds).toBe(true);
  });
});

describe("no production", () => {
  const rule = defaultAlertRules.no_production;
  it.each([
    // [light on the panels, power, first point, newest point, holds, raised]
    [800, 0, "11:00", "11:25", true, false],
    [800, 0, "11:00", "11:30", true, true],
    [800, 99, "11:00", "11:30", true, true],
    [800, 100, "11:00", "11:30", false, false],
    // Expected power at 100 W/m² is 8 % of capacity: not checked.
    [100, 0, "11:00", "12:00", false, false],
    [130, 0, "11:00", "12:00", true, true],
    [0, 0, "22:00", "23:00", false, false],
  ] as const)("%s W/m², %s W from %s to %s: holds %s, raised %s", (poa, power, from, to, holds, raised) => {
    const finding = noProduction(
      system(from, to, () => power),
      rule,
      clearSky(poa),
    );
    expect([finding.holds, finding.raised]).toEqual([holds, raised]);
  });

  it("starts at the first point of the current run", () => {
    const input = system("10:00", "12:00", (t) => (t < at("11:00") ? 6000 : 0));
    const finding = noProduction(input, rule, clearSky(800));
    expect(finding.since).toBe(at("11:00"));
    expect(finding.lostWh(at("11:00"), at("12:00"))).toBeCloseTo(EXPECTED, 0);
  });
});

describe("underperformance", () => {
  const rule = defaultAlertRules.underperformance;
  it.each([
    // [share of expected, light on the panels, first point, newest, holds]
    [0.6, 800, "09:00", "11:00", true],
    [0.79, 800, "09:00", "11:00", true],
    [0.81, 800, "09:00", "11:00", false],
    // Less than the 2-hour window of data.
    [0.6, 800, "09:30", "11:00", false],
    // Not above 200 W/m² on the panels.
    [0.6, 200, "09:00", "11:00", false],
  ] as const)("%s of expected under %s W/m² from %s to %s: holds %s", (share, poa, from, to, holds) => {
    const input = system(from, to, () => share * EXPECTED);
    expect(underperformance(input, rule, clearSky(poa)).holds).toBe(holds);
  });

  it("follows the organisation's window and threshold", () => {
    const input = system("10:00", "11:00", () => 0.75 * EXPECTED);
    expect(underperformance(input, rule, clearSky(800)).holds).toBe(false);
    expect(underperformance(input, { ...rule, windowMinutes: 60 }, clearSky(800)).holds).toBe(true);
    expect(
      underperformance(input, { ...rule, windowMinutes: 60, thresholdPct: 70 }, clearSky(800)).holds,
    ).toBe(false);
  });
});

describe("inverter down", () => {
  const rule = defaultAlertRules.inverter_down;
  const withInverters = (
    a: (t: number) => number | null,
    b: (t: number) => number | null,
    offlineB = false,
  ) => {
    const base = system("09:00", "09:30", () => 0);
    const inverter = (serial: string, power: (t: number) => number | null, offline: boolean) => ({
      serial,
      points: base.points.map(([t]) => [t, power(t), offline ? 1 : 0] as [number, number | null, number]),
    });
    return { ...base, inverters: [inverter("A", a, false), inverter("B", b, offlineB)] };
  };

  it.each([
    // [A, B, B offline, raised for B, holds for A]
    [3000, 0, false, true, false],
    [3000, 2000, true, true, false],
    // The other produces no more than 5 % of its 5 kW share.
    [250, 0, false, false, false],
    [260, 0, false, true, false],
    [3000, 10, false, false, false],
    [0, 0, false, false, false],
  ] as const)("A at %s W, B at %s W (offline %s): B raised %s", (a, b, offline, raisedB, holdsA) => {
    const [findingA, findingB] = inverterDown(
      withInverters(
        () => a,
        () => b,
        offline,
      ),
      rule,
    );
    expect(findingB?.raised).toBe(raisedB);
    expect(findingB?.deviceSerial).toBe("B");
    expect(findingA?.holds).toBe(holdsA);
  });

  it("waits for the delay and loses the others' mean power", () => {
    const input = withInverters(
      () => 3000,
      (t) => (t < at("09:10") ? 3000 : 0),
    );
    const finding = inverterDown(input, rule)[1];
    expect(finding?.since).toBe(at("09:10"));
    expect(finding?.raised).toBe(false);
    // 20 minutes of data at the others' 3,000 W.
    expect(finding?.lostWh(at("09:10"), at("09:30"))).toBeCloseTo(1000, 0);
  });
});

describe("evaluateSystem", () => {
  const rules = defaultAlertRules;
  it("lets communication lost suppress the production rules", () => {
    const input = system("09:00", "12:00", () => 0);
    const { findings, suppressed } = evaluateSystem(input, rules, clearSky(800), at("13:30"));
    expect(findings.map((f) => f.rule)).toEqual(["communication_lost"]);
    expect(suppressed).toEqual(["no_production", "underperformance", "inverter_down"]);
  });

  it("raises no production, not underperformance, for a plant at 0 W", () => {
    const input = system("09:00", "12:00", () => 0);
    const { findings } = evaluateSystem(input, rules, clearSky(800), at("12:00"));
    expect(findings.filter((f) => f.raised).map((f) => f.rule)).toEqual(["no_production"]);
  });

  it("raises nothing for a disabled rule", () => {
    const input = system("09:00", "12:00", () => 0);
    const off = { ...rules, no_production: { ...rules.no_production, enabled: false } };
    const { findings } = evaluateSystem(input, off, clearSky(800), at("12:00"));
    // A plant at 0 W is no production's: underperformance leaves those instants out.
    expect(findings.filter((f) => f.raised).map((f) => f.rule)).toEqual([]);
  });

  it("leaves instants of no production and of a down inverter out of underperformance", () => {
    const recovered = system("09:00", "11:05", (t) => (t >= at("10:00") && t < at("11:00") ? 0 : EXPECTED));
    expect(underperformance(recovered, rules.underperformance, clearSky(800)).holds).toBe(true);
    const after = evaluateSystem(recovered, rules, clearSky(800), at("11:05"));
    expect(after.findings.filter((f) => f.holds).map((f) => f.rule)).toEqual([]);
    const low = system("09:00", "11:05", (t) => (t >= at("10:00") && t < at("11:00") ? 0 : 0.6 * EXPECTED));
    const still = evaluateSystem(low, rules, clearSky(800), at("11:05"));
    expect(still.findings.filter((f) => f.raised).map((f) => f.rule)).toEqual(["underperformance"]);
  });
});
