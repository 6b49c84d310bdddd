import { clearSkyHour, type Place, poaOverHour, type WeatherHour } from "./plane-of-array";
import { STEP_MS, STEPS_PER_HOUR } from "./sun";

/**
 * Expected AC power of a PV system, PVWatts-style (Dobos, NREL/TP-6A20-62641, 2014):
 *   DC = capacity × POA / 1000 × (1 + γ (T_cell − 25 °C)),
 *   AC = calibration × DC, limited to the inverter's AC rating,
 * with the plane-of-array irradiance of plane-of-array.ts and the cell temperature of Faiman's
 * model (2008; pvlib's and PVsyst's default u0 = 25 W/m²K, u1 = 6.84 W s/m³K) from the air
 * temperature, the irradiance and the wind. `calibration` lumps what PVWatts lists as system
 * losses (soiling at its usual level, mismatch, wiring, nameplate, age) and the inverter's
 * efficiency: PVWatts' defaults give 0.86 × 0.96 ≈ 0.83 until the system's own healthy hours
 * have taught its value (worker/domain/losses/calibration.ts).
 */

/** PVWatts' default system losses (14 %) and nominal inverter efficiency (96 %). */
export const DEFAULT_CALIBRATION = (1 - 0.14) * 0.96;
/** Power temperature coefficient of a crystalline-silicon module, per °C (PVWatts' standard module). */
export const TEMPERATURE_COEFFICIENT_PER_C = -0.0037;
const FAIMAN_U0 = 25;
const FAIMAN_U1 = 6.84;
/** Used when the weather service gave no temperature or wind for the hour. */
const FALLBACK_AIR_C = 20;
const FALLBACK_WIND_MS = 2;

export interface PvSystem extends Place {
  /** DC capacity at STC, W. */
  capacityW: number;
  tiltDeg: number;
  /** Degrees clockwise from north: 180 faces south. */
  azimuthDeg: number;
  /** The inverters' AC limit, W; null when unknown. */
  acLimitW: number | null;
  /** AC out over temperature-corrected DC at the STC rating. */
  calibration: number;
}

/** Cell temperature, °C (Faiman 2008). */
export function cellTemperatureC(airC: number, poaWm2: number, windMs: number): number {
  return airC + poaWm2 / (FAIMAN_U0 + FAIMAN_U1 * Math.max(0, windMs));
}

/** One 5-minute step of the model. */
export interface ExpectedStep {
  /** Start of the step, epoch ms. */
  at: number;
  poaWm2: number;
  /** Temperature-corrected DC power at the STC rating, before calibration, W. */
  referenceW: number;
  /** Expected AC power without the AC limit, W. */
  powerW: number;
}

/** The model's twelve 5-minute steps of one weather hour. */
export function expectedSteps(system: PvSystem, hour: WeatherHour): ExpectedStep[] {
  const poa = poaOverHour(system, system, hour);
  const airC = hour.airC ?? FALLBACK_AIR_C;
  const windMs = hour.windMs ?? FALLBACK_WIND_MS;
  const steps: ExpectedStep[] = [];
  for (let i = 0; i < STEPS_PER_HOUR; i++) {
    const poaWm2 = poa[i] ?? 0;
    const referenceW =
      poaWm2 <= 0
        ? 0
        : Math.max(
            0,
            system.capacityW *
              (poaWm2 / 1000) *
              (1 + TEMPERATURE_COEFFICIENT_PER_C * (cellTemperatureC(airC, poaWm2, windMs) - 25)),
          );
    steps.push({
      at: hour.hourStart + i * STEP_MS,
      poaWm2,
      referenceW,
      powerW: referenceW * system.calibration,
    });
  }
  return steps;
}

/** AC power within the limit. */
export const limited = (system: PvSystem, powerW: number) =>
  system.acLimitW === null ? powerW : Math.min(powerW, system.acLimitW);

const STEP_HOURS = STEP_MS / 3_600_000;

/** Expected AC energy of one weather hour, Wh, within the AC limit. */
export function expectedHourWh(system: PvSystem, hour: WeatherHour): number {
  return expectedSteps(system, hour).reduce(
    (sum, step) => sum + limited(system, step.powerW) * STEP_HOURS,
    0,
  );
}

/** Expected AC energy over weather hours, Wh. */
export function expectedEnergyWh(system: PvSystem, hours: WeatherHour[]): number {
  return Math.round(hours.reduce((sum, hour) => sum + expectedHourWh(system, hour), 0));
}

/** What the same hours would have given under a clear sky, Wh: the weather's share is this less expected. */
export function clearSkyEnergyWh(system: PvSystem, hours: WeatherHour[]): number {
  return Math.round(hours.reduce((sum, hour) => sum + expectedHourWh(system, clearSkyHour(system, hour)), 0));
}

/** Expected AC power at an instant, W: the model's step holding it, within the AC limit. */
export function expectedPowerAt(system: PvSystem, hour: WeatherHour, at: number): number {
  const index = Math.min(STEPS_PER_HOUR - 1, Math.max(0, Math.floor((at - hour.hourStart) / STEP_MS)));
  const step = expectedSteps(system, hour)[index];
  return step ? limited(system, step.powerW) : 0;
}

/** Performance ratio: actual over expected energy; null when nothing was expected (night, no data). */
export function performanceRatio(actualWh: number, expectedWh: number): number | null {
  if (expectedWh <= 0) return null;
  return Math.round((actualWh / expectedWh) * 1000) / 1000;
}
