import { getPosition } from "suncalc";
import { daytimeTemperatureC, skyStates } from "./climate";
import { clearSkyGhiW, type PlaneOfArray, planeOfArrayW } from "./irradiance";

/**
 * Annual energy of a fixed PV array, PVWatts-style (Dobos, NREL/TP-6A20-62641, 2014), from
 * first principles instead of a weather file:
 *   1. the sun's position every hour of a year (suncalc 2: degrees),
 *   2. clear-sky irradiance (Haurwitz) scaled by the latitude's climatological clear-sky index,
 *   3. plane-of-array irradiance (Erbs decomposition, isotropic sky, ground reflection, ASHRAE
 *      glass reflection),
 *   4. cell temperature (NOCT model) and the module's power temperature coefficient,
 *   5. PVWatts' default 14 % system losses (soiling, shading, snow, mismatch, wiring,
 *      connections, light-induced degradation, nameplate, age, availability) and a 96 %
 *      inverter, clipped at the AC limit when one is given.
 * Answers are per kWp and scaled by the capacity; good to about ±10 % of long-term measured
 * yields in the latitudes it was calibrated for (see climate.ts).
 */

/** PVWatts v5+ default system losses: 14.08 %. */
export const SYSTEM_LOSSES = 0.1408;
/** PVWatts' nominal inverter efficiency. */
export const INVERTER_EFFICIENCY = 0.96;
/** Power temperature coefficient of a standard crystalline module, per °C (PVWatts: -0.37 %/°C). */
export const TEMPERATURE_COEFFICIENT_PER_C = -0.0037;
/** Nominal operating cell temperature of an open-rack module, °C (800 W/m², 20 °C air). */
const NOCT_C = 45;
const ALBEDO = 0.2;
/** A non-leap year whose hours stand for any year: the sun repeats yearly to well under a percent. */
const REFERENCE_YEAR = 2025;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const DEG = Math.PI / 180;

export interface YieldInput {
  latitude: number;
  longitude: number;
  capacityKw: number;
  /** Panel tilt from horizontal, degrees; defaults to the latitude's optimum. */
  tiltDeg?: number;
  /** Panel azimuth, degrees clockwise from north; defaults to facing the equator. */
  azimuthDeg?: number;
  /** Inverter AC limit, kW; the DC power above it is clipped. */
  acLimitKw?: number;
}

export interface YieldEstimate {
  /** kWh per year. */
  annualYieldKwh: number;
  /** kWh in each calendar month, January first. */
  monthlyYieldKwh: number[];
  /** kWh per kWp per year. */
  specificYieldKwhPerKwp: number;
  /** Plane-of-array irradiation per day, kWh/m²/day: hours of 1 kW/m² sun on the panels. */
  peakSunHours: number;
  /** Global horizontal irradiation per day, kWh/m²/day. */
  ghiKwhPerM2Day: number;
  /** Annual AC energy over what the plane-of-array light would give at STC: the performance ratio. */
  performanceRatio: number;
  tiltDeg: number;
  azimuthDeg: number;
}

/**
 * Tilt that maximises annual yield (Jacobson and Jadhav 2018, fit to PVWatts runs worldwide),
 * for the absolute latitude; capped at 60° where snow and winter sun make steeper pointless.
 */
export function optimalTiltDeg(latitude: number): number {
  const band = Math.abs(latitude);
  const tilt = 1.3793 + band * (1.2011 + band * (-0.014404 + band * 0.000080509));
  return Math.min(60, Math.max(0, band <= 25 ? band * 0.87 : tilt));
}

export const equatorFacingAzimuthDeg = (latitude: number) => (latitude >= 0 ? 180 : 0);

/** Every hour of every other day: the sun's daily path barely moves in two days, and it halves the work. */
const DAY_STEP = 2;

interface MonthTotals {
  acKwh: number;
  poaKwhPerM2: number;
  ghiKwhPerM2: number;
  sampledDays: number;
  days: number;
}

/** The year's months with their lengths (UTC calendar arithmetic on a fixed year, no zones involved). */
function emptyMonths(): MonthTotals[] {
  return Array.from({ length: 12 }, (_, month) => ({
    acKwh: 0,
    poaKwhPerM2: 0,
    ghiKwhPerM2: 0,
    sampledDays: 0,
    days: (Date.UTC(REFERENCE_YEAR, month + 1, 1) - Date.UTC(REFERENCE_YEAR, month, 1)) / DAY_MS,
  }));
}

/** Per kWp (1 kW DC at 1000 W/m² and 25 °C), month by month. */
function simulateYear(latitude: number, longitude: number, plane: PlaneOfArray, acLimitPerKwp: number) {
  const months = emptyMonths();
  const yearStart = Date.UTC(REFERENCE_YEAR, 0, 1);
  const date = new Date(yearStart);
  for (let dayIndex = 0; dayIndex < 365; dayIndex += DAY_STEP) {
    const dayOfYear = dayIndex + 1;
    const sky = skyStates(latitude, dayOfYear);
    const airC = daytimeTemperatureC(latitude, dayOfYear);
    const dayStart = yearStart + dayIndex * DAY_MS;
    date.setTime(dayStart);
    const totals = months[date.getUTCMonth()];
    if (!totals) continue;
    totals.sampledDays++;
    for (let hour = 0; hour < 24; hour++) {
      // The middle of each hour stands for the whole hour.
      date.setTime(dayStart + hour * HOUR_MS + HOUR_MS / 2);
      const sun = getPosition(date, latitude, longitude);
      if (sun.altitude <= 0) continue;
      const clearGhiW = clearSkyGhiW(Math.sin(sun.altitude * DEG));
      const position = { altitudeDeg: sun.altitude, azimuthDeg: sun.azimuth };
      for (const state of sky) {
        const ghiW = clearGhiW * state.clearSkyIndex;
        totals.ghiKwhPerM2 += (state.weight * ghiW) / 1000;
        const poaW = planeOfArrayW(ghiW, position, plane, dayOfYear);
        if (poaW <= 0) continue;
        totals.poaKwhPerM2 += (state.weight * poaW) / 1000;
        const cellC = airC + (poaW / 800) * (NOCT_C - 20);
        const dcKw = (poaW / 1000) * (1 + TEMPERATURE_COEFFICIENT_PER_C * (cellC - 25)) * (1 - SYSTEM_LOSSES);
        totals.acKwh += state.weight * Math.min(dcKw * INVERTER_EFFICIENCY, acLimitPerKwp);
      }
    }
  }
  // Each month's sampled days stand for all its days.
  return months.map((m) => {
    const scale = m.sampledDays > 0 ? m.days / m.sampledDays : 0;
    return { acKwh: m.acKwh * scale, poaKwhPerM2: m.poaKwhPerM2 * scale, ghiKwhPerM2: m.ghiKwhPerM2 * scale };
  });
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

export function estimateYield(input: YieldInput): YieldEstimate {
  const plane: PlaneOfArray = {
    tiltDeg: input.tiltDeg ?? optimalTiltDeg(input.latitude),
    azimuthDeg: input.azimuthDeg ?? equatorFacingAzimuthDeg(input.latitude),
    albedo: ALBEDO,
  };
  const acLimitPerKwp =
    input.acLimitKw !== undefined && input.capacityKw > 0 ? input.acLimitKw / input.capacityKw : Infinity;
  const months = simulateYear(input.latitude, input.longitude, plane, acLimitPerKwp);
  const specific = sum(months.map((m) => m.acKwh));
  const poaKwhPerM2 = sum(months.map((m) => m.poaKwhPerM2));
  return {
    annualYieldKwh: specific * input.capacityKw,
    monthlyYieldKwh: months.map((m) => m.acKwh * input.capacityKw),
    specificYieldKwhPerKwp: specific,
    peakSunHours: poaKwhPerM2 / 365,
    ghiKwhPerM2Day: sum(months.map((m) => m.ghiKwhPerM2)) / 365,
    performanceRatio: poaKwhPerM2 > 0 ? specific / poaKwhPerM2 : 0,
    tiltDeg: plane.tiltDeg,
    azimuthDeg: plane.azimuthDeg,
  };
}
