import { effectiveOrientation } from "./orientation";
import type { Place, WeatherHour } from "./plane-of-array";
import { expectedHourWh, type PvSystem } from "./pv-model";

/**
 * A place's reference yield: the one model's expected AC energy (pv-model.ts) per kW of DC over
 * the given weather hours, for panels at the latitude's tilt facing the equator, at calibration 1
 * and without an AC limit. A system's expectation from it is capacity × its calibration × this:
 * what the read models that add up many systems per place use (a system's own orientation and
 * limit are modelled in its losses, its alerts and its weather screen).
 */
export function referenceWhPerKw(place: Place, hours: WeatherHour[]): number {
  const effective = effectiveOrientation({
    system: { tiltDeg: null, azimuthDeg: null, acLimitKw: null, latitude: place.latitude },
    site: null,
    invertersRatedW: null,
  }).effective;
  const system: PvSystem = {
    capacityW: 1000,
    latitude: place.latitude,
    longitude: place.longitude,
    tiltDeg: effective.tiltDeg ?? 0,
    azimuthDeg: effective.azimuthDeg ?? (place.latitude >= 0 ? 180 : 0),
    acLimitW: null,
    calibration: 1,
  };
  return hours.reduce((total, hour) => total + expectedHourWh(system, hour), 0);
}

/** The place a location key ("52.37,4.90") names. */
export function placeOfKey(locationKey: string): Place | null {
  const [latitude, longitude] = locationKey.split(",").map(Number);
  return Number.isFinite(latitude) && Number.isFinite(longitude)
    ? { latitude: latitude as number, longitude: longitude as number }
    : null;
}
