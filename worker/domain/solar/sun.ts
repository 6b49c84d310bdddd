import { getPosition } from "suncalc";

const DEG = Math.PI / 180;

/** The sun as the plane-of-array sums need it: a unit vector (east, north, up) and the angles. */
export interface SunVector {
  /** Cosine of the zenith angle: the sine of the altitude, negative below the horizon. */
  cosZenith: number;
  east: number;
  north: number;
  altitudeDeg: number;
  azimuthDeg: number;
}

/** The sun's position at an instant (suncalc 2: apparent altitude and azimuth clockwise from north, degrees). */
export function sunAt(latitude: number, longitude: number, at: number): SunVector {
  const { altitude, azimuth } = getPosition(new Date(at), latitude, longitude);
  const alt = altitude * DEG;
  const az = azimuth * DEG;
  return {
    cosZenith: Math.sin(alt),
    east: Math.cos(alt) * Math.sin(az),
    north: Math.cos(alt) * Math.cos(az),
    altitudeDeg: altitude,
    azimuthDeg: azimuth,
  };
}

export const STEP_MS = 5 * 60_000;
export const HOUR_MS = 3_600_000;
export const STEPS_PER_HOUR = HOUR_MS / STEP_MS;

/**
 * The sun at the middle of each 5-minute step of an hour: every system at one place shares these,
 * so they are kept for the places and hours asked for recently.
 */
const hourCache = new Map<string, SunVector[]>();
const HOUR_CACHE_LIMIT = 200_000;

export function sunOverHour(latitude: number, longitude: number, hourStart: number): SunVector[] {
  const key = `${latitude.toFixed(3)},${longitude.toFixed(3)}@${hourStart}`;
  const cached = hourCache.get(key);
  if (cached) return cached;
  const steps: SunVector[] = [];
  for (let i = 0; i < STEPS_PER_HOUR; i++) {
    steps.push(sunAt(latitude, longitude, hourStart + i * STEP_MS + STEP_MS / 2));
  }
  if (hourCache.size >= HOUR_CACHE_LIMIT) hourCache.clear();
  hourCache.set(key, steps);
  return steps;
}

/** A fixed plane: tilt from horizontal and azimuth clockwise from north (180 faces south), degrees. */
export interface Plane {
  tiltDeg: number;
  azimuthDeg: number;
}

/** The plane's unit normal (east, north, up). */
export function planeNormal(plane: Plane): { east: number; north: number; up: number } {
  const tilt = plane.tiltDeg * DEG;
  const az = plane.azimuthDeg * DEG;
  return { east: Math.sin(tilt) * Math.sin(az), north: Math.sin(tilt) * Math.cos(az), up: Math.cos(tilt) };
}

/** Cosine of the angle of incidence: the sun's vector on the plane's normal. */
export const cosIncidence = (sun: SunVector, normal: { east: number; north: number; up: number }) =>
  sun.east * normal.east + sun.north * normal.north + sun.cosZenith * normal.up;

/** Day of the year (1-366) of an instant, in UTC: the orbit's eccentricity needs no zone. */
export function dayOfYear(at: number): number {
  const date = new Date(at);
  return Math.floor((at - Date.UTC(date.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
}
