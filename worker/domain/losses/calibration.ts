import { DEFAULT_CALIBRATION } from "../solar/pv-model";

/*
 * A system's calibration — AC out over temperature-corrected DC at its STC rating — learned from
 * its own healthy hours: each day's ratio over the steps the accounting found healthy (the system
 * and all its inverters running, the model clear of the AC limit, the sun above ~150 W/m² on the
 * panels), and of those days a high quantile, so downtime, outages, soiling and clouds the model
 * did not see (all of which only lower a day's ratio) do not pull the expectation down, and one
 * odd bright day does not lift it. A day's ratio is taken with the soiling estimated for it
 * removed, so the expectation is the clean panels' (soiling then has its whole share to take).
 */

/** Days with less healthy reference energy than this many hours at the STC rating say too little. */
export const MIN_HEALTHY_HOURS = 1;
/** Days needed before the system's own value replaces the default. */
export const MIN_CALIBRATION_DAYS = 5;
/** The quantile of the daily ratios taken: the system as it runs clean and healthy. */
const QUANTILE = 0.9;
/** Ratios outside this range are not a PV system's (a wrong capacity, a meter on another feed). */
const PLAUSIBLE = { min: 0.3, max: 1.2 } as const;
/** What a calibration may come to. */
const BOUNDS = { min: 0.5, max: 1.05 } as const;

export interface CalibrationDay {
  healthyReferenceWh: number;
  healthyActualWh: number;
}

/** What soiling took of a day, where known: its ratios are taken as the clean panels would give them. */
export interface SoiledDay extends CalibrationDay {
  soilableWh?: number;
  losses?: { soiling: number };
}

/** A day's healthy ratio, or null when the day has too few healthy hours. */
export function dailyRatio(day: CalibrationDay, capacityW: number): number | null {
  if (capacityW <= 0 || day.healthyReferenceWh < MIN_HEALTHY_HOURS * capacityW) return null;
  const ratio = day.healthyActualWh / day.healthyReferenceWh;
  return ratio >= PLAUSIBLE.min && ratio <= PLAUSIBLE.max ? ratio : null;
}

/** The day's healthy ratio with the soiling estimated for it taken out. */
function cleanRatio(day: SoiledDay, capacityW: number): number | null {
  const ratio = dailyRatio(day, capacityW);
  if (ratio === null) return null;
  const soilable = day.soilableWh ?? 0;
  const soiling = day.losses?.soiling ?? 0;
  return soilable > 0 && soiling > 0 ? ratio / Math.max(0.5, 1 - soiling / soilable) : ratio;
}

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below] as number;
  const high = sorted[above] as number;
  return low + (high - low) * (position - below);
}

/** The calibration the days teach, with how many days it rests on; the default until enough days. */
export function learnCalibration(
  days: SoiledDay[],
  capacityW: number,
): { calibration: number; days: number } {
  const ratios = days.map((day) => cleanRatio(day, capacityW)).filter((r): r is number => r !== null);
  if (ratios.length < MIN_CALIBRATION_DAYS) return { calibration: DEFAULT_CALIBRATION, days: ratios.length };
  const learned = quantile(ratios, QUANTILE);
  return {
    calibration: Math.min(BOUNDS.max, Math.max(BOUNDS.min, Math.round(learned * 10_000) / 10_000)),
    days: ratios.length,
  };
}
