import { describe, expect, it } from "vitest";
import { LOSS_PLANTS, type LossScenario, lossTruth } from "../../../sandbox/losses";
import { lossCategories } from "../../../schema/loss-categories";
import { inferAcLimitW } from "../../../worker/domain/losses/ac-limit";
import { accountDay, type SystemDayInput } from "../../../worker/domain/losses/accounting";
import { learnCalibration, quantile } from "../../../worker/domain/losses/calibration";
import { estimateSoiling, theilSen } from "../../../worker/domain/losses/soiling";
import { learnSystem, needsRecount, settleSoiling } from "../../../worker/domain/losses/system-account";
import type { SystemDayLosses } from "../../../worker/domain/losses/types";
import { clearSkyHour } from "../../../worker/domain/solar/plane-of-array";
import { DEFAULT_CALIBRATION, expectedEnergyWh } from "../../../worker/domain/solar/pv-model";
import { sandboxDays } from "./sandbox-days";

/*
 * The model and the accounting against the sandbox's losses account, whose injected losses are
 * known (sandbox/losses.ts). A fixed clock keeps each case reproducible: the sandbox's sky and its
 * 30-day cycle of losses are pure functions of time, so these dates stand for any.
 */

const SUMMER = Date.parse("2026-07-01T12:00:00Z");
const WINTER = Date.parse("2026-01-15T12:00:00Z");

const plantOf = (scenario: LossScenario) => {
  const plant = LOSS_PLANTS.find((p) => p.scenario === scenario);
  if (!plant) throw new Error(scenario);
  return plant;
};

/**
 * Accounts the days as the fleet store's passes do: first with the default model, then again
 * while what the days teach (calibration, AC limit, with soiling taken out) moves the model.
 */
function account(scenario: LossScenario, now: number, options: { inverterPoints?: boolean } = {}) {
  const plant = plantOf(scenario);
  const { system, weather, inputs } = sandboxDays(plant, now, options);
  const run = () =>
    inputs
      .map((input) => accountDay({ ...input, system, weather } as SystemDayInput))
      .filter((day): day is SystemDayLosses => day !== null);
  let days = settleSoiling(run(), system.calibration, plant.capacityW);
  let learned = learnSystem(days, plant.capacityW, null);
  for (let pass = 0; pass < 4 && needsRecount(system, learned); pass++) {
    system.calibration = learned.calibration;
    system.acLimitW = learned.acLimitW;
    days = settleSoiling(run(), learned.calibration, plant.capacityW);
    learned = learnSystem(days, plant.capacityW, null);
  }
  const truth = days.map((day) => lossTruth(plant, day.date));
  const sum = <T>(list: T[], of: (item: T) => number) => list.reduce((total, item) => total + of(item), 0);
  return {
    plant,
    learned,
    days,
    expectedWh: sum(days, (d) => d.expectedWh),
    actualWh: sum(days, (d) => d.actualWh),
    loss: (category: (typeof lossCategories)[number]) => sum(days, (d) => d.losses[category]),
    truth: {
      actualWh: sum(truth, (t) => t.actualWh),
      downtimeWh: sum(truth, (t) => t.downtimeWh),
      partialOutageWh: sum(truth, (t) => t.partialOutageWh),
      clippingWh: sum(truth, (t) => t.clippingWh),
      soilingWh: sum(truth, (t) => t.soilingWh),
    },
  };
}

const within = (value: number, target: number, share: number) => {
  expect(value).toBeGreaterThanOrEqual(target * (1 - share));
  expect(value).toBeLessThanOrEqual(target * (1 + share));
};

describe("the expected-power model and the daily loss accounting, against the sandbox's injected losses", () => {
  it.each([
    { season: "summer", now: SUMMER },
    { season: "winter", now: WINTER },
  ])("a healthy plant ($season) loses less than 3 percent of expected, and each day adds up", ({ now }) => {
    const result = account("reference", now);
    expect(result.days).toHaveLength(30);
    // The points are whole watts: their energy is the plant's to well under a watt-hour per point.
    expect(Math.abs(result.actualWh - result.truth.actualWh)).toBeLessThan(0.001 * result.truth.actualWh);
    const lost = result.expectedWh - result.actualWh;
    expect(Math.abs(lost) / result.expectedWh).toBeLessThan(0.03);
    for (const day of result.days) {
      const categories = lossCategories.reduce((sum, c) => sum + day.losses[c], 0);
      expect(day.actualWh + categories, day.date).toBe(day.expectedWh);
    }
    expect(result.loss("downtime") + result.loss("partialOutage") + result.loss("clipping")).toBeLessThan(
      0.01 * result.expectedWh,
    );
    // The plant's own calibration, learned from its healthy hours, replaced the default.
    expect(result.learned.calibrationDays).toBeGreaterThanOrEqual(5);
    expect(result.learned.calibration).not.toBe(DEFAULT_CALIBRATION);
    expect(result.learned.acLimitW).toBeNull();
  });

  it("counts whole-day outages as downtime, within 5 % of what the plant did not make", () => {
    const result = account("outages", SUMMER);
    expect(result.truth.downtimeWh).toBeGreaterThan(0);
    within(result.loss("downtime"), result.truth.downtimeWh, 0.05);
    expect(Math.abs(result.loss("underperformance"))).toBeLessThan(0.03 * result.expectedWh);
    expect(result.loss("partialOutage") + result.loss("clipping")).toBeLessThan(0.01 * result.expectedWh);
  });

  it("finds the undersized inverter's limit in the power and counts the energy above it as clipping", () => {
    const result = account("clipping", SUMMER);
    expect(result.learned.acLimitInferred).toBe(true);
    within(result.learned.acLimitW ?? 0, 9_000, 0.01);
    within(result.loss("clipping"), result.truth.clippingWh, 0.15);
    expect(result.loss("downtime") + result.loss("partialOutage")).toBeLessThan(0.01 * result.expectedWh);
  });

  it.each([
    ["with the inverters' points", true],
    ["from the system's points alone (history)", false],
  ])("counts one of two inverters down for days as a partial outage, %s", (_, inverterPoints) => {
    const result = account("inverter", SUMMER, { inverterPoints });
    expect(result.truth.partialOutageWh).toBeGreaterThan(0);
    within(result.loss("partialOutage"), result.truth.partialOutageWh, 0.1);
    expect(result.loss("downtime")).toBeLessThan(0.01 * result.expectedWh);
  });

  it("tells each inverter's own part of a partial outage", () => {
    const plant = plantOf("inverter");
    const { system, weather, inputs } = sandboxDays(plant, SUMMER, { days: 30 });
    const days = inputs.map((input) => accountDay({ ...input, system, weather }) as SystemDayLosses);
    const down = days.filter((day) => day.losses.partialOutage > 0);
    expect(down.length).toBeGreaterThanOrEqual(4);
    for (const day of down) {
      const [first, second] = day.inverters;
      expect(first?.partialOutageWh).toBe(0);
      expect(second?.partialOutageWh).toBeGreaterThan(0);
      expect(second?.actualWh).toBe(0);
    }
  });

  it("estimates the soiling ramp between rains", () => {
    const result = account("soiling", SUMMER);
    expect(result.truth.soilingWh).toBeGreaterThan(0);
    within(result.loss("soiling"), result.truth.soilingWh, 0.3);
    // Soiling comes out of underperformance: what is left stays small.
    expect(Math.abs(result.loss("underperformance"))).toBeLessThan(0.02 * result.expectedWh);
  });

  it("leaves a day without its daylight weather unaccounted", () => {
    const plant = plantOf("reference");
    const { system, weather, inputs } = sandboxDays(plant, SUMMER, { days: 2 });
    const input = inputs[0] as (typeof inputs)[number];
    const noon = Math.floor((input.startMs + 13 * 3_600_000) / 3_600_000) * 3_600_000;
    const gappy = new Map(weather);
    gappy.delete(noon);
    expect(accountDay({ ...input, system, weather: gappy })).toBeNull();
    expect(accountDay({ ...input, system, weather })).not.toBeNull();
  });

  it("counts expected energy of hours without points as unmeasured, less what the counter says they made", () => {
    const plant = plantOf("reference");
    const { system, weather, inputs } = sandboxDays(plant, SUMMER, { days: 1 });
    const input = inputs[0] as (typeof inputs)[number];
    const gapFrom = input.startMs + 10 * 3_600_000;
    const gapTo = input.startMs + 13 * 3_600_000;
    const points = input.points.filter((p) => p.at < gapFrom || p.at >= gapTo);
    const full = accountDay({ ...input, system, weather }) as SystemDayLosses;
    // Without a counter the gap's expected energy is unmeasured...
    const blind = accountDay({
      ...input,
      system,
      weather,
      points,
      inverters: [],
      counterEnergyWh: null,
    }) as SystemDayLosses;
    expect(blind.losses.unmeasured).toBeGreaterThan(0.15 * full.expectedWh);
    expect(blind.actualWh).toBeLessThan(full.actualWh);
    // ...with the day's counter, what the plant made meanwhile is not lost.
    const counted = accountDay({ ...input, system, weather, points, inverters: [] }) as SystemDayLosses;
    expect(counted.actualWh).toBe(full.actualWh);
    expect(counted.losses.unmeasured).toBeLessThan(0.02 * full.expectedWh);
  });

  it("gives the weather's share as clear-sky expected less expected, never inside the losses", () => {
    const result = account("reference", WINTER);
    expect(result.days.some((day) => day.weatherWh > 0.3 * day.expectedWh)).toBe(true);
    for (const day of result.days) expect(day.weatherWh).toBeGreaterThanOrEqual(0);
  });
});

describe("the learning pieces", () => {
  it("keeps the calibration of healthy days when faults lower some", () => {
    const healthy = Array.from({ length: 20 }, (_, i) => ({
      healthyReferenceWh: 40_000,
      healthyActualWh: 40_000 * (0.85 + (i % 5) * 0.002),
    }));
    const faulty = Array.from({ length: 8 }, () => ({ healthyReferenceWh: 40_000, healthyActualWh: 20_000 }));
    const clean = learnCalibration(healthy, 10_000).calibration;
    const mixed = learnCalibration([...healthy, ...faulty], 10_000).calibration;
    expect(Math.abs(mixed - clean)).toBeLessThan(0.005);
    expect(learnCalibration(healthy.slice(0, 3), 10_000).calibration).toBe(DEFAULT_CALIBRATION);
  });

  it("fits a robust line through an outlier", () => {
    const points = [0, 1, 2, 3, 4, 5].map((x) => ({ x, y: 1 - 0.01 * x }));
    points[3] = { x: 3, y: 0.5 };
    const { slope, intercept } = theilSen(points);
    expect(slope).toBeCloseTo(-0.01, 4);
    expect(intercept).toBeCloseTo(1, 3);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
  });

  it("restarts soiling at rain and ignores flat stretches", () => {
    const day = (i: number, index: number, rain = 0) => ({
      date: `2026-06-${String(i + 1).padStart(2, "0")}`,
      index,
      precipitationMm: rain,
      soilableWh: 10_000,
    });
    const ramp = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => day(i, 1 - 0.01 * i));
    const after = [8, 9, 10, 11, 12].map((i, k) => day(i, 1 - 0.01 * k, k === 0 ? 5 : 0));
    const estimates = estimateSoiling([...ramp, ...after]);
    expect(estimates[7]?.soilingRatio).toBeCloseTo(0.93, 2);
    expect(estimates[8]?.soilingRatio).toBe(1);
    expect(estimateSoiling([0, 1, 2, 3, 4, 5].map((i) => day(i, 1))).every((e) => e.soilingWh === 0)).toBe(
      true,
    );
  });

  it("finds no AC limit in a plant that never reaches one", () => {
    expect(inferAcLimitW([{ peakPowerW: 8_000, plateauSteps: 0 }])).toBeNull();
    expect(
      inferAcLimitW([
        { peakPowerW: 9_000, plateauSteps: 30 },
        { peakPowerW: 9_010, plateauSteps: 24 },
        { peakPowerW: 6_000, plateauSteps: 0 },
      ]),
    ).toBe(9_005);
  });

  it("expects more from a panel facing the sun than from one facing away", () => {
    const plant = plantOf("reference");
    const { system, weather } = sandboxDays(plant, WINTER, { days: 1 });
    // Under a clear sky: on an overcast day every orientation sees the same diffuse light.
    const hours = [...weather.values()].map((hour) => clearSkyHour(system, hour));
    const south = expectedEnergyWh(system, hours);
    const north = expectedEnergyWh({ ...system, azimuthDeg: 0 }, hours);
    const clipped = expectedEnergyWh({ ...system, acLimitW: 2_000 }, hours);
    expect(south).toBeGreaterThan(north * 1.2);
    expect(clipped).toBeLessThan(south);
  });
});
