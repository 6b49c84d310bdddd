import { getPosition } from "suncalc";
import { hash, unit } from "./hash";

/**
 * The sandbox's sky at a place and instant: what its weather service reports (as hourly means)
 * and what every sandbox plant receives (every 5 minutes). Its physics is its own,
 * not the product's model: the beam/diffuse split follows the clear-sky index, light on a tilted
 * plane follows Hay and Davies with a Martin and Ruiz glass loss, and the cells warm as the
 * Sandia array performance model says (King et al. 2004), so the product meets a sky it has to
 * model, not one made from its own formulas. Its clouds and rain are the place's: every plant
 * there sees them (simulation.ts), as the weather service reports them.
 */

const DEG = Math.PI / 180;

/** Below this cosine of the zenith angle the clear-sky model gives no light. */
export const MIN_COS_ZENITH = 0.01;

/** Clear-sky global horizontal irradiance (Haurwitz model), W/m², from the sun's altitude. */
export function clearSkyIrradiance(latitude: number, longitude: number, at: number): number {
  // suncalc 2 answers the apparent altitude in degrees.
  const altitudeDeg = getPosition(new Date(at), latitude, longitude).altitude;
  const cosZenith = Math.sin((altitudeDeg * Math.PI) / 180);
  if (cosZenith <= MIN_COS_ZENITH) return 0;
  return 1098 * cosZenith * Math.exp(-0.057 / cosZenith);
}

/**
 * The sky's clouds and rain are the place's (a 0.01° cell), so a plant's output and the weather the
 * sandbox's weather service reports for its place agree, as a real plant's and the real weather do.
 * It rains every RAIN_EVERY_DAYS days at each place (the phase is the place's), in the morning
 * hours (UTC) of an overcast day; other overcast days stay dry.
 */
export const RAIN_EVERY_DAYS = 8;

/** The place key the weather service and the product round to: 0.01° (about 1 km). */
export const placeKey = (latitude: number, longitude: number) =>
  `${latitude.toFixed(2)},${longitude.toFixed(2)}`;

/** Fraction of clear-sky light the clouds let through at a place: mostly clear, with passing clouds. */
function cloudFactor(place: string, at: number): number {
  const slot = Math.floor(at / (10 * 60 * 1000));
  const day = Math.floor(at / 86_400_000);
  const overcastDay = unit(`${place}:day:${day}`) < 0.15;
  const dip = unit(`${place}:slot:${slot}`);
  const base = overcastDay ? 0.35 : 0.95;
  return dip < 0.12 ? base * (0.3 + dip * 2) : base;
}

/** Whether it rains at the place on the UTC day holding `at`. */
export function rainDay(place: string, at: number): boolean {
  const day = Math.floor(at / 86_400_000);
  return (day + (hash(`${place}:rain`) % RAIN_EVERY_DAYS)) % RAIN_EVERY_DAYS === 0;
}

/** The share of clear-sky light that gets through: passing clouds, overcast days, rain days grey. */
export function clearSkyIndex(place: string, at: number): number {
  const clouds = cloudFactor(place, at);
  return rainDay(place, at) ? Math.min(clouds, 0.35) : clouds;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Rain over the UTC hour holding `at`, mm: rain days bring several millimetres through their first twelve hours. */
export function precipitationMm(place: string, at: number): number {
  if (!rainDay(place, at)) return 0;
  const hourOfDay = Math.floor((at % DAY_MS) / HOUR_MS);
  if (hourOfDay >= 12) return 0;
  return Math.round((0.4 + unit(`${place}:rain:${Math.floor(at / HOUR_MS)}`) * 2) * 10) / 10;
}

export interface SkyInstant {
  ghiWm2: number;
  /** Beam on the horizontal. */
  directWm2: number;
  diffuseWm2: number;
  /** Beam on a plane facing the sun. */
  directNormalWm2: number;
  airC: number;
  windMs: number;
  cosZenith: number;
  sunAltitudeDeg: number;
  sunAzimuthDeg: number;
}

/** Air temperature, °C: latitude, season and the sun's warming through the day. */
export function airTemperatureC(latitude: number, clearSkyWm2: number, at: number): number {
  const dayOfYear = Math.floor((at % 31_557_600_000) / DAY_MS);
  const seasonal = Math.cos(((dayOfYear - 200) / 365) * 2 * Math.PI) * (latitude >= 0 ? 1 : -1);
  const base = 24 - Math.abs(latitude) * 0.35 + seasonal * 9;
  return Math.round((base + (clearSkyWm2 / 1000) * 6) * 10) / 10;
}

/** Wind at 10 m, km/h, steady through each UTC hour. */
export const windKmh = (place: string, at: number) =>
  Math.round((6 + (hash(`${place}:wind:${Math.floor(at / HOUR_MS)}`) % 180) / 10) * 10) / 10;

export function skyAt(latitude: number, longitude: number, at: number): SkyInstant {
  const place = placeKey(latitude, longitude);
  const sun = getPosition(new Date(at), latitude, longitude);
  const cosZenith = Math.sin(sun.altitude * DEG);
  const clear = clearSkyIrradiance(latitude, longitude, at);
  const index = clearSkyIndex(place, at);
  const ghiWm2 = clear * index;
  // Clear skies are mostly beam (more diffuse at low sun); clouds turn it diffuse.
  const clearDiffuse = 0.1 + 0.15 * (1 - Math.max(0, cosZenith));
  const cloudiness = Math.min(1, Math.max(0, (0.95 - index) / 0.65));
  const diffuseShare = clearDiffuse + (1 - clearDiffuse) * cloudiness;
  const diffuseWm2 = ghiWm2 * diffuseShare;
  const directWm2 = ghiWm2 - diffuseWm2;
  return {
    ghiWm2,
    directWm2,
    diffuseWm2,
    directNormalWm2: cosZenith > 0.01 ? directWm2 / cosZenith : 0,
    airC: airTemperatureC(latitude, clear, at),
    windMs: windKmh(place, at) / 3.6,
    cosZenith,
    sunAltitudeDeg: sun.altitude,
    sunAzimuthDeg: sun.azimuth,
  };
}

/** Glass reflection at angle of incidence θ (Martin and Ruiz 2001, a_r = 0.16), relative to normal incidence. */
function glassTransmission(cosAoi: number): number {
  if (cosAoi <= 0) return 0;
  const ar = 0.16;
  return (1 - Math.exp(-cosAoi / ar)) / (1 - Math.exp(-1 / ar));
}

const SOLAR_CONSTANT = 1361;

/** Light on a plane (tilt, azimuth clockwise from north), W/m²: Hay and Davies sky, ground albedo 0.2. */
export function planeIrradianceWm2(sky: SkyInstant, tiltDeg: number, azimuthDeg: number): number {
  if (sky.cosZenith <= 0 || sky.ghiWm2 <= 0) return 0;
  const tilt = tiltDeg * DEG;
  const sinZenith = Math.sqrt(Math.max(0, 1 - sky.cosZenith ** 2));
  const cosAoi =
    sky.cosZenith * Math.cos(tilt) +
    sinZenith * Math.sin(tilt) * Math.cos((sky.sunAzimuthDeg - azimuthDeg) * DEG);
  const beam = Math.max(0, cosAoi) * sky.directNormalWm2 * glassTransmission(cosAoi);
  const anisotropy = Math.min(1, sky.directNormalWm2 / SOLAR_CONSTANT);
  const rb = Math.max(0, cosAoi) / Math.max(sky.cosZenith, 0.1);
  const diffuse = sky.diffuseWm2 * (anisotropy * rb + (1 - anisotropy) * ((1 + Math.cos(tilt)) / 2));
  const ground = sky.ghiWm2 * 0.2 * ((1 - Math.cos(tilt)) / 2);
  return beam + diffuse + ground;
}

/** Cell temperature, °C: Sandia's open-rack glass/cell/polymer module (a −3.56, b −0.075, ΔT 3 °C). */
export function sandiaCellC(poaWm2: number, airC: number, windMs: number): number {
  const moduleC = poaWm2 * Math.exp(-3.56 - 0.075 * windMs) + airC;
  return moduleC + (poaWm2 / 1000) * 3;
}

/** The weather service's hourly values: means over the hour's 5-minute instants before `end`, rain summed. */
export function hourMeans(latitude: number, longitude: number, end: number) {
  const place = placeKey(latitude, longitude);
  const sums = { ghi: 0, direct: 0, diffuse: 0, directNormal: 0 };
  const steps = 12;
  for (let i = 0; i < steps; i++) {
    const sky = skyAt(latitude, longitude, end - HOUR_MS + i * 300_000);
    sums.ghi += sky.ghiWm2;
    sums.direct += sky.directWm2;
    sums.diffuse += sky.diffuseWm2;
    sums.directNormal += sky.directNormalWm2;
  }
  return {
    ghiWm2: sums.ghi / steps,
    directWm2: sums.direct / steps,
    diffuseWm2: sums.diffuse / steps,
    directNormalWm2: sums.directNormal / steps,
    precipitationMm: precipitationMm(place, end - HOUR_MS),
  };
}
