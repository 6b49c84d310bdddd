import type { LossesByCategory } from "../../../schema/api/losses";
import type { PvSystem } from "../solar/pv-model";
import { inferAcLimitW, type PlateauDay } from "./ac-limit";
import { dailyRatio, learnCalibration, type SoiledDay } from "./calibration";
import { estimateSoiling } from "./soiling";

/*
 * What a system's accounted days teach about it, and what they owe each other: the calibration
 * and the AC limit learned from them (a day is accounted again when either moves), and soiling,
 * which moves part of each day's underperformance once the days around it are known.
 */

/** A calibration or AC limit that moved by more than this share changes the days accounted with the old. */
export const RECOUNT_SHARE = 0.01;

export interface LearnedSystem {
  calibration: number;
  /** Days with enough healthy hours the calibration rests on (0: the default). */
  calibrationDays: number;
  /** The AC limit, W: the one entered, else the one the days show, else null. */
  acLimitW: number | null;
  acLimitInferred: boolean;
}

/** The calibration and AC limit the days teach; an entered AC limit stands. */
export function learnSystem(
  days: (SoiledDay & PlateauDay)[],
  capacityW: number,
  enteredAcLimitW: number | null,
): LearnedSystem {
  const { calibration, days: calibrationDays } = learnCalibration(days, capacityW);
  const inferred = enteredAcLimitW === null ? inferAcLimitW(days) : null;
  return {
    calibration,
    calibrationDays,
    acLimitW: enteredAcLimitW ?? inferred,
    acLimitInferred: enteredAcLimitW === null && inferred !== null,
  };
}

const moved = (a: number | null, b: number | null) =>
  a === null || b === null ? a !== b : Math.abs(a - b) > RECOUNT_SHARE * Math.max(Math.abs(a), Math.abs(b));

/** Whether days accounted with `before` must be accounted again with `after`. */
export const needsRecount = (before: Pick<PvSystem, "calibration" | "acLimitW">, after: LearnedSystem) =>
  moved(before.calibration, after.calibration) || moved(before.acLimitW, after.acLimitW);

export interface SettledDay extends SoiledDay {
  date: string;
  precipitationMm: number;
  soilableWh: number;
  losses: LossesByCategory;
}

/**
 * Soiling over a system's days (oldest first, one system): each day's losses with soiling moved
 * out of underperformance. The sum of the categories is unchanged.
 */
export function settleSoiling<D extends SettledDay>(days: D[], calibration: number, capacityW: number): D[] {
  const remainders = days.map((day) => day.losses.soiling + day.losses.underperformance);
  const estimates = estimateSoiling(
    days.map((day) => {
      const ratio = dailyRatio(day, capacityW);
      return {
        date: day.date,
        index: ratio === null ? null : ratio / calibration,
        precipitationMm: day.precipitationMm,
        soilableWh: day.soilableWh,
      };
    }),
  );
  return days.map((day, i) => {
    const soiling = estimates[i]?.soilingWh ?? 0;
    return {
      ...day,
      losses: { ...day.losses, soiling, underperformance: (remainders[i] ?? 0) - soiling },
    };
  });
}
