import type { WeatherHour } from "../solar/plane-of-array";
import { clearSkyHour } from "../solar/plane-of-array";
import { type ExpectedStep, expectedSteps, type PvSystem } from "../solar/pv-model";
import { HOUR_MS, STEP_MS, sunOverHour } from "../solar/sun";
import {
  type InverterDayLosses,
  type InverterReadings,
  noLosses,
  type ReadingPoint,
  type SystemDayLosses,
} from "./types";

/*
 * One system's plant-local day split into categories that add up, step by 5-minute step:
 *   expected = actual + downtime + partialOutage + clipping + soiling + underperformance + unmeasured.
 * Expected is the model's AC power without the AC limit (pv-model.ts), so energy the inverter
 * could not pass counts as clipping. Soiling is left at 0 here: it needs the days around this one
 * (soiling.ts moves it out of underperformance).
 */

/** A point stands for the power from its time for at most this long (as the daily energy does). */
export const POINT_VALID_MS = 15 * 60_000;
/** Expected power (share of capacity) below which a step cannot tell a fault from dawn or dusk. */
const DOWN_MIN_EXPECTED = 0.02;
/** A step is down when the system gave less than this share of expected. */
const DOWN_SHARE = 0.05;
/** ... or the vendor said offline or alarm and it gave less than this share. */
const DOWN_SHARE_REPORTED = 0.1;
/** Power below this share of capacity continues a stretch of downtime into dawn or dusk. */
const DOWN_CONTINUES = 0.005;
/** An inverter is down when it gives less than this share of its peers' mean... */
const INVERTER_DOWN_SHARE = 0.02;
/** ...while they give more than this share of their part of expected. */
const PEERS_PRODUCING = 0.05;
/** Power at the AC limit: at least this share of it. */
const AT_LIMIT = 0.97;
/** A clipping plateau: steps within this share of the day's peak... */
const PLATEAU_BAND = 0.99;
/** ...where the model expected this much more at their highest, and moved by this much across them. */
const PLATEAU_MODEL_ABOVE = 1.08;
const PLATEAU_MODEL_SPREAD = 1.05;
/** Healthy steps (calibration, soiling) keep the model clear of the limit and of low sun. */
const HEALTHY_BELOW_LIMIT = 0.9;
const HEALTHY_MIN_POA = 150;
/** An hour counts for an inverter-outage pattern when its expected power is this share of capacity. */
const PRODUCTIVE_HOUR = 0.1;
/** A run of hours at (n−k)/n of expected: this close to the level, this steady, this long. */
const FRACTION_TOLERANCE = 0.07;
const FRACTION_STEADY = 0.04;
const FRACTION_MIN_HOURS = 3;
/** A whole day: its productive energy this close to the level, and this share of its hours within the scatter. */
const DAY_FRACTION_TOLERANCE = 0.05;
const HOUR_FRACTION_SCATTER = 0.12;
const DAY_FRACTION_HOURS = 0.6;

const STEP_HOURS = STEP_MS / HOUR_MS;

export interface SystemDayInput {
  /** Plant-local YYYY-MM-DD and its UTC interval. */
  date: string;
  startMs: number;
  endMs: number;
  system: PvSystem;
  /** The place's weather hours by hour start. */
  weather: ReadonlyMap<number, WeatherHour>;
  /** The system's points of the day, oldest first. */
  points: ReadingPoint[];
  /** Its inverters' points (none when the vendor gave only the system's, as history does). */
  inverters: InverterReadings[];
  /** Inverters the system has, whether or not they sent points. */
  inverterCount: number;
  /** The day's energy by the vendor's counter, when known: it covers gaps in the points. */
  counterEnergyWh: number | null;
}

/** The point standing for a step [at, at + 5 min): the newest at most POINT_VALID_MS old, or none. */
function coveringIndex(points: ReadingPoint[], at: number, from: number): number {
  let found = -1;
  for (let i = from; i < points.length; i++) {
    const point = points[i] as ReadingPoint;
    if (point.at >= at + STEP_MS) break;
    if (point.at > at - POINT_VALID_MS && point.powerW !== null) found = i;
  }
  return found;
}

/** The first index of a point at or after `at - POINT_VALID_MS` (points oldest first). */
function firstFrom(points: ReadingPoint[], at: number, from: number): number {
  let i = from;
  while (i < points.length && (points[i] as ReadingPoint).at <= at - POINT_VALID_MS) i++;
  return i;
}

interface Step {
  at: number;
  model: ExpectedStep;
  /** Expected under a clear sky, W. */
  clearW: number;
  powerW: number | null;
  state: ReadingPoint["state"];
  /** Each inverter's power, null when it has no point for the step. */
  inverterW: (number | null)[];
  down: boolean;
  partialW: number;
  clipW: number;
}

/**
 * The day's account, or null when the weather service has not given a daylight hour of it yet
 * (the day is accounted once it has).
 */
export function accountDay(input: SystemDayInput): SystemDayLosses | null {
  const { system } = input;
  const steps: Step[] = [];
  let precipitationMm = 0;
  const firstHour = Math.floor(input.startMs / HOUR_MS) * HOUR_MS;
  const cursors = { system: 0, inverters: input.inverters.map(() => 0) };
  for (let hourStart = firstHour; hourStart < input.endMs; hourStart += HOUR_MS) {
    const hour = input.weather.get(hourStart);
    if (!hour) {
      const daylight = sunOverHour(system.latitude, system.longitude, hourStart).some((s) => s.cosZenith > 0);
      if (daylight) return null;
      continue;
    }
    precipitationMm += hour.precipitationMm ?? 0;
    const model = expectedSteps(system, hour);
    const clear = expectedSteps(system, clearSkyHour(system, hour));
    model.forEach((step, i) => {
      if (step.at < input.startMs || step.at >= input.endMs) return;
      cursors.system = firstFrom(input.points, step.at, cursors.system);
      const index = coveringIndex(input.points, step.at, cursors.system);
      const point = index >= 0 ? input.points[index] : undefined;
      const inverterW = input.inverters.map((inverter, j) => {
        const from = firstFrom(inverter.points, step.at, cursors.inverters[j] ?? 0);
        cursors.inverters[j] = from;
        const k = coveringIndex(inverter.points, step.at, from);
        return k >= 0 ? ((inverter.points[k] as ReadingPoint).powerW ?? null) : null;
      });
      steps.push({
        at: step.at,
        model: step,
        clearW: clear[i]?.powerW ?? 0,
        powerW: point ? Math.max(0, point.powerW ?? 0) : null,
        state: point?.state ?? null,
        inverterW,
        down: false,
        partialW: 0,
        clipW: 0,
      });
    });
  }

  markDowntime(steps, system);
  const inverterDays = input.inverters.map(
    (inverter): InverterDayLosses => ({
      inverterId: inverter.inverterId,
      expectedWh: 0,
      actualWh: 0,
      partialOutageWh: 0,
      downSteps: 0,
    }),
  );
  if (input.inverters.length >= 2) markInverterOutages(steps, system, inverterDays);
  else if (input.inverterCount >= 2) markInferredOutages(steps, system, input.inverterCount);

  const limitW = system.acLimitW;
  let expectedWh = 0;
  let clearWh = 0;
  let coveredWh = 0;
  let downtimeWh = 0;
  let partialWh = 0;
  /** Expected less actual over the steps the system ran: the most a down inverter can have cost. */
  let operatingShortfallWh = 0;
  let clippingWh = 0;
  let uncoveredWh = 0;
  let healthyReferenceWh = 0;
  let healthyActualWh = 0;
  let soilableWh = 0;
  let peakPowerW = 0;
  for (const step of steps) {
    const expectedW = step.model.powerW;
    expectedWh += expectedW * STEP_HOURS;
    clearWh += step.clearW * STEP_HOURS;
    if (step.powerW === null) {
      uncoveredWh += expectedW * STEP_HOURS;
      continue;
    }
    const powerW = step.powerW;
    coveredWh += powerW * STEP_HOURS;
    peakPowerW = Math.max(peakPowerW, powerW);
    if (step.down) {
      downtimeWh += Math.max(0, expectedW - powerW) * STEP_HOURS;
      continue;
    }
    const partialW = step.partialW;
    partialWh += partialW * STEP_HOURS;
    operatingShortfallWh += (expectedW - powerW) * STEP_HOURS;
    if (limitW !== null && partialW === 0 && expectedW > limitW && powerW >= AT_LIMIT * limitW) {
      step.clipW = expectedW - limitW;
      clippingWh += step.clipW * STEP_HOURS;
    }
    soilableWh += Math.max(0, expectedW - partialW - step.clipW) * STEP_HOURS;
    const healthy =
      partialW === 0 &&
      step.model.poaWm2 >= HEALTHY_MIN_POA &&
      (limitW === null || expectedW < HEALTHY_BELOW_LIMIT * limitW);
    if (healthy) {
      healthyReferenceWh += step.model.referenceW * STEP_HOURS;
      healthyActualWh += powerW * STEP_HOURS;
    }
  }
  const plateauSteps = plateauOf(steps, peakPowerW);
  const share = input.inverters.length > 0 ? 1 / input.inverters.length : 0;
  for (const day of inverterDays) day.expectedWh = Math.round(expectedWh * share);

  // The counter covers what the points missed: energy made during a gap is not lost there.
  const actualWh = Math.round(input.counterEnergyWh ?? coveredWh);
  const gapEnergyWh = Math.max(0, actualWh - coveredWh);
  const losses = noLosses();
  const expected = Math.round(expectedWh);
  losses.downtime = Math.round(downtimeWh);
  // The model spreads an hour's light over its steps, so a single step may expect less than the
  // others gave: the down inverters' share is held to the day's shortfall, not each step's.
  losses.partialOutage = Math.round(Math.min(partialWh, Math.max(0, operatingShortfallWh)));
  losses.clipping = Math.round(clippingWh);
  losses.unmeasured = Math.round(Math.max(0, uncoveredWh - gapEnergyWh));
  losses.underperformance =
    expected - actualWh - losses.downtime - losses.partialOutage - losses.clipping - losses.unmeasured;
  return {
    date: input.date,
    expectedWh: expected,
    actualWh,
    weatherWh: Math.max(0, Math.round(clearWh - expectedWh)),
    losses,
    healthyReferenceWh: Math.round(healthyReferenceWh),
    healthyActualWh: Math.round(healthyActualWh),
    soilableWh: Math.round(soilableWh),
    peakPowerW: Math.round(peakPowerW),
    plateauSteps,
    precipitationMm: Math.round(precipitationMm * 10) / 10,
    inverters: inverterDays.map((day) => ({
      ...day,
      actualWh: Math.round(day.actualWh),
      partialOutageWh: Math.round(day.partialOutageWh),
    })),
  };

  function markInverterOutages(list: Step[], pv: PvSystem, days: InverterDayLosses[]) {
    const n = days.length;
    for (const step of list) {
      step.inverterW.forEach((w, j) => {
        const day = days[j];
        if (day && w !== null) day.actualWh += Math.max(0, w) * STEP_HOURS;
      });
      if (step.powerW === null || step.down) continue;
      const reporting = step.inverterW.filter((w): w is number => w !== null);
      if (reporting.length < 2) continue;
      const partShareW = step.model.powerW / n;
      step.inverterW.forEach((w, j) => {
        if (w === null) return;
        const peers = step.inverterW.filter((other, k): other is number => k !== j && other !== null);
        const peersMeanW = peers.reduce((a, b) => a + Math.max(0, b), 0) / peers.length;
        if (
          peersMeanW <= PEERS_PRODUCING * partShareW ||
          partShareW < DOWN_MIN_EXPECTED * (pv.capacityW / n)
        ) {
          return;
        }
        if (Math.max(0, w) <= INVERTER_DOWN_SHARE * peersMeanW) {
          const lostW = peersMeanW - Math.max(0, w);
          step.partialW += lostW;
          const day = days[j];
          if (day) {
            day.partialOutageWh += lostW * STEP_HOURS;
            day.downSteps++;
          }
        }
      });
    }
  }
}

/**
 * Steps at the day's peak power (within 1 %) while the model expected clearly more and its
 * expectation moved across them: a plateau clipping makes. A natural peak is flat in both the
 * power and the model; a day with any step down does not say.
 */
function plateauOf(steps: Step[], peakPowerW: number): number {
  if (peakPowerW <= 0 || steps.some((step) => step.down || step.partialW > 0)) return 0;
  const top = steps.filter((step) => step.powerW !== null && step.powerW >= PLATEAU_BAND * peakPowerW);
  const models = top.map((step) => step.model.powerW);
  const highest = Math.max(...models);
  const lowest = Math.min(...models);
  if (highest < PLATEAU_MODEL_ABOVE * peakPowerW || highest < PLATEAU_MODEL_SPREAD * lowest) return 0;
  return top.length;
}

/**
 * Steps where the system gave almost nothing (or said offline or alarm) while the model expected
 * power in daylight; a stretch of them continues into dawn and dusk while the power stays at 0.
 */
function markDowntime(steps: Step[], system: PvSystem) {
  const floorW = DOWN_MIN_EXPECTED * system.capacityW;
  for (const step of steps) {
    if (step.powerW === null) continue;
    const expectedW = step.model.powerW;
    if (expectedW < floorW) continue;
    const reportedDown = step.state === "offline" || step.state === "alarm";
    step.down =
      step.powerW < DOWN_SHARE * expectedW || (reportedDown && step.powerW < DOWN_SHARE_REPORTED * expectedW);
  }
  const quietW = DOWN_CONTINUES * system.capacityW;
  const spread = (order: number[]) => {
    let previousDown = false;
    for (const i of order) {
      const step = steps[i] as Step;
      if (step.powerW === null) {
        previousDown = false;
        continue;
      }
      if (!step.down && previousDown && step.model.powerW > 0 && step.powerW <= quietW) step.down = true;
      previousDown = step.down;
    }
  };
  const indices = steps.map((_, i) => i);
  spread(indices);
  spread(indices.reverse());
}

/**
 * Where the vendor gave no inverter data (a day read from history), a system of n inverters that
 * runs a whole day, or for hours steadily, at (n−k)/n of expected has k of them down: those
 * steps carry the down inverters' share (what the others gave, per inverter). Clouds the model
 * does not know of rarely hold one level for hours.
 */
function markInferredOutages(steps: Step[], system: PvSystem, inverterCount: number) {
  const hours = new Map<number, { actualWh: number; expectedWh: number; steps: Step[] }>();
  for (const step of steps) {
    if (step.powerW === null || step.down) continue;
    const hourStart = Math.floor(step.at / HOUR_MS) * HOUR_MS;
    const hour = hours.get(hourStart) ?? { actualWh: 0, expectedWh: 0, steps: [] };
    hour.actualWh += step.powerW * STEP_HOURS;
    hour.expectedWh += step.model.powerW * STEP_HOURS;
    hour.steps.push(step);
    hours.set(hourStart, hour);
  }
  const productive = [...hours.entries()]
    .filter(([, hour]) => hour.steps.length >= 6 && hour.expectedWh >= PRODUCTIVE_HOUR * system.capacityW)
    .sort(([a], [b]) => a - b);
  const levelOf = (ratio: number, tolerance = FRACTION_TOLERANCE) => {
    for (let down = 1; down < inverterCount; down++) {
      const level = (inverterCount - down) / inverterCount;
      if (Math.abs(ratio - level) <= tolerance) return down;
    }
    return 0;
  };
  const ratios = productive.map(([, hour]) => hour.actualWh / hour.expectedWh);
  const markSteps = (marked: Step[], down: number) => {
    for (const step of marked) {
      if (step.powerW === null || step.down) continue;
      step.partialW = (step.powerW * down) / (inverterCount - down);
    }
  };
  // A whole day at the level: most productive hours near it and the day's energy on it (clouds the
  // model did not see scatter single hours, not the day).
  if (productive.length >= FRACTION_MIN_HOURS) {
    const actualWh = productive.reduce((sum, [, hour]) => sum + hour.actualWh, 0);
    const expectedWh = productive.reduce((sum, [, hour]) => sum + hour.expectedWh, 0);
    const down = levelOf(actualWh / expectedWh, DAY_FRACTION_TOLERANCE);
    const near = ratios.filter((ratio) => levelOf(ratio, HOUR_FRACTION_SCATTER) === down).length;
    if (down > 0 && near >= DAY_FRACTION_HOURS * productive.length) {
      markSteps(steps, down);
      return;
    }
  }
  let i = 0;
  while (i < productive.length) {
    const down = levelOf(ratios[i] ?? 0);
    let j = i;
    while (j < productive.length && down > 0 && levelOf(ratios[j] ?? 0) === down) {
      const previous = productive[j - 1]?.[0];
      const current = productive[j]?.[0] as number;
      if (j > i && previous !== undefined && current - previous > HOUR_MS) break;
      j++;
    }
    const run = ratios.slice(i, j);
    if (down > 0 && run.length >= FRACTION_MIN_HOURS && spreadOf(run) <= FRACTION_STEADY) {
      const wholeDay = i === 0 && j === productive.length;
      markSteps(wholeDay ? steps : productive.slice(i, j).flatMap(([, hour]) => hour.steps), down);
      i = j;
    } else {
      i = Math.max(j, i + 1);
    }
  }
}

function spreadOf(values: number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length);
}
