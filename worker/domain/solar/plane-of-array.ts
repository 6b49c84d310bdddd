import { beamIncidenceModifier, clearSkyGhiW, diffuseFraction, extraterrestrialNormalW } from "./irradiance";
import { cosIncidence, dayOfYear, type Plane, planeNormal, STEPS_PER_HOUR, sunOverHour } from "./sun";

/**
 * Plane-of-array irradiance through one hour, step by step, from the hour's means as a weather
 * service gives them (Open-Meteo: shortwave, direct and diffuse radiation on the horizontal, each
 * the mean of the hour). The beam's normal intensity is taken as steady through the hour, so the
 * beam and the diffuse light follow the sun's height within it and their means stay the hour's;
 * the beam is projected onto the plane with the ASHRAE glass loss, the sky's diffuse light follows
 * Hay and Davies (1980) and the ground reflects the rest (albedo 0.2). Without the split, Erbs,
 * Klein and Duffie (1982) give it from the hour's clearness index.
 */

/** One hour of weather at a place: radiation as means over [hourStart, hourStart + 1 h). */
export interface WeatherHour {
  hourStart: number;
  /** Global horizontal irradiance, W/m². */
  ghiWm2: number;
  /** Beam on the horizontal (Open-Meteo's direct_radiation), W/m²; null when the service gave only the global. */
  directWm2: number | null;
  diffuseWm2: number | null;
  /** Air temperature at 2 m, °C. */
  airC: number | null;
  /** Wind speed at 10 m, m/s. */
  windMs: number | null;
  /** Rain, showers and snow over the hour, mm. */
  precipitationMm: number | null;
}

export interface Place {
  latitude: number;
  longitude: number;
}

const ALBEDO = 0.2;
/** The sun's height (sine) below which the projection stops growing: about 5°. */
const LOW_SUN = 0.087;

/** Plane-of-array irradiance, W/m², at the middle of each 5-minute step of the hour. */
export function poaOverHour(place: Place, plane: Plane, hour: WeatherHour): number[] {
  const suns = sunOverHour(place.latitude, place.longitude, hour.hourStart);
  const out = new Array<number>(STEPS_PER_HOUR).fill(0);
  const meanCosZenith = suns.reduce((sum, sun) => sum + Math.max(0, sun.cosZenith), 0) / STEPS_PER_HOUR;
  if (meanCosZenith <= 0 || hour.ghiWm2 <= 0) return out;
  const topNormalW = extraterrestrialNormalW(dayOfYear(hour.hourStart));
  let beamH: number;
  let diffuseH: number;
  if (hour.directWm2 !== null && hour.diffuseWm2 !== null) {
    beamH = Math.max(0, hour.directWm2);
    diffuseH = Math.max(0, hour.diffuseWm2);
  } else {
    const kt = Math.min(1, hour.ghiWm2 / (topNormalW * meanCosZenith));
    diffuseH = hour.ghiWm2 * diffuseFraction(kt);
    beamH = hour.ghiWm2 - diffuseH;
  }
  const normalBeam = Math.min(topNormalW, beamH / Math.max(meanCosZenith, LOW_SUN));
  const anisotropy = normalBeam / topNormalW;
  const normal = planeNormal(plane);
  const skyView = (1 + normal.up) / 2;
  const groundView = (1 - normal.up) / 2;
  for (let i = 0; i < STEPS_PER_HOUR; i++) {
    const sun = suns[i];
    if (!sun || sun.cosZenith <= 0) continue;
    const shape = sun.cosZenith / meanCosZenith;
    const diffuse = diffuseH * shape;
    const global = beamH * shape + diffuse;
    const cosAoi = cosIncidence(sun, normal);
    const beam = cosAoi > 0 ? normalBeam * cosAoi * beamIncidenceModifier(cosAoi) : 0;
    const projection = Math.max(0, cosAoi) / Math.max(sun.cosZenith, LOW_SUN);
    const sky = diffuse * (anisotropy * projection + (1 - anisotropy) * skyView);
    out[i] = beam + sky + global * ALBEDO * groundView;
  }
  return out;
}

/**
 * The same hour under a clear sky: Haurwitz's clear-sky global irradiance, with the hour's air
 * and wind, for the weather's share of a shortfall (what a cloudless hour would have given).
 */
export function clearSkyHour(place: Place, hour: WeatherHour): WeatherHour {
  const suns = sunOverHour(place.latitude, place.longitude, hour.hourStart);
  const ghiWm2 = suns.reduce((sum, sun) => sum + clearSkyGhiW(sun.cosZenith), 0) / STEPS_PER_HOUR;
  return { ...hour, ghiWm2, directWm2: null, diffuseWm2: null, precipitationMm: 0 };
}
