import { quantile } from "./calibration";

/*
 * The AC limit of a system nobody entered one for, from its own power, in the spirit of
 * pvanalytics' clipping detection (Perry, Hansen et al., pvanalytics.features.clipping): an
 * inverter at its limit holds one flat level for a while on bright days, above which the model
 * expects more. Days that show such a plateau (PLATEAU_STEPS 5-minute steps within 1 % of the
 * day's peak while the model expected more) and agree on its level give the limit.
 */

const PLATEAU_STEPS = 6;
const MIN_PLATEAU_DAYS = 2;
/** Plateau days agree when their peaks are within this share of their median. */
const AGREEMENT = 0.02;

export interface PlateauDay {
  peakPowerW: number;
  plateauSteps: number;
}

/** The inferred AC limit, W, or null when the days show no consistent plateau. */
export function inferAcLimitW(days: PlateauDay[]): number | null {
  const peaks = days
    .filter((day) => day.plateauSteps >= PLATEAU_STEPS && day.peakPowerW > 0)
    .map((d) => d.peakPowerW);
  if (peaks.length < MIN_PLATEAU_DAYS) return null;
  const level = quantile(peaks, 0.5);
  const agreeing = peaks.filter((peak) => Math.abs(peak - level) <= AGREEMENT * level);
  if (agreeing.length < MIN_PLATEAU_DAYS || agreeing.length < peaks.length / 2) return null;
  return Math.round(quantile(agreeing, 0.5));
}
