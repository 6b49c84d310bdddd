/**
 * Expected output of a PV system from measured irradiance, PVWatts-style: DC capacity times
 * plane-of-array irradiance over the 1000 W/m² rating, less system losses. The weather service
 * gives global horizontal irradiance (GHI); without a per-site transposition model the
 * horizontal value stands in for the plane of array, which understates a tilted array's input
 * at low sun and overstates it at high sun by a few percent over a day.
 *
 * PVWatts' default system losses are 14 % (soiling, shading, mismatch, wiring, connections,
 * light-induced degradation, nameplate rating, availability), with a further ~4 % for the
 * inverter at typical load: 0.86 × 0.96 ≈ 0.83 of nameplate at STC irradiance.
 */
export const SYSTEM_LOSSES = 0.14;
export const INVERTER_EFFICIENCY = 0.96;
export const DERATE = (1 - SYSTEM_LOSSES) * INVERTER_EFFICIENCY;

export function expectedPowerW(capacityW: number, irradianceWm2: number): number {
  if (capacityW <= 0 || irradianceWm2 <= 0) return 0;
  return capacityW * (irradianceWm2 / 1000) * DERATE;
}

/** Expected energy over hourly mean irradiance values (W/m² for one hour each = Wh/m²). */
export function expectedEnergyWh(capacityW: number, hourlyIrradianceWm2: number[]): number {
  return Math.round(hourlyIrradianceWm2.reduce((sum, g) => sum + expectedPowerW(capacityW, g), 0));
}

/** Performance ratio: actual over expected energy; null when nothing was expected (night, no data). */
export function performanceRatio(actualWh: number, expectedWh: number): number | null {
  if (expectedWh <= 0) return null;
  return Math.round((actualWh / expectedWh) * 1000) / 1000;
}
