import type { LossesByCategory } from "../../../schema/api/losses";

/** No loss in any category (the API's categories: schema/api/losses.ts). */
export const noLosses = (): LossesByCategory => ({
  downtime: 0,
  partialOutage: 0,
  clipping: 0,
  soiling: 0,
  underperformance: 0,
  unmeasured: 0,
});

/** A system's state as its vendor reported it with a point. */
export type PointState = "online" | "offline" | "alarm";

/** One stored point: vendor data time (epoch ms), power and state. */
export interface ReadingPoint {
  at: number;
  powerW: number | null;
  state: PointState | null;
}

/** One inverter's points of a day, oldest first. */
export interface InverterReadings {
  inverterId: string;
  points: ReadingPoint[];
}

/** An inverter's part of a system-day. */
export interface InverterDayLosses {
  inverterId: string;
  /** The system's expected energy over its inverters, Wh. */
  expectedWh: number;
  actualWh: number;
  /** Energy lost while it was down beside producing peers, Wh. */
  partialOutageWh: number;
  /** 5-minute steps it was down while its peers produced. */
  downSteps: number;
}

/**
 * One system's plant-local day, energy in Wh: expected = actual + the losses, exactly.
 * The remaining fields are what calibration, soiling and the AC-limit inference read back.
 */
export interface SystemDayLosses {
  date: string;
  expectedWh: number;
  actualWh: number;
  /** Expected under a clear sky less expected: the weather's share, beside the losses. */
  weatherWh: number;
  losses: LossesByCategory;
  /** Temperature-corrected DC at the STC rating over the day's healthy steps, Wh (calibration's denominator). */
  healthyReferenceWh: number;
  /** What the system produced in those steps, Wh. */
  healthyActualWh: number;
  /** Expected energy soiling could have taken: the steps it ran, less clipping and a down inverter's share, Wh. */
  soilableWh: number;
  peakPowerW: number;
  /** Steps at (within 1 % of) the day's peak while the model expected more: a clipping plateau. */
  plateauSteps: number;
  precipitationMm: number;
  inverters: InverterDayLosses[];
}
