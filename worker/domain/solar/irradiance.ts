/**
 * Irradiance on a tilted plane from the sun's position: the textbook chain PVWatts and PVGIS
 * use, in its simplest published forms (each formula is named where it is used).
 */

const DEG = Math.PI / 180;

/** Solar constant, W/m² (Kopp & Lean 2011). */
export const SOLAR_CONSTANT_W_M2 = 1361;

/** Extraterrestrial normal irradiance, W/m²: the solar constant with the orbit's eccentricity (Spencer 1971, first term). */
export function extraterrestrialNormalW(dayOfYear: number): number {
  return SOLAR_CONSTANT_W_M2 * (1 + 0.033 * Math.cos((2 * Math.PI * dayOfYear) / 365));
}

/**
 * Clear-sky global horizontal irradiance, W/m² (Haurwitz 1945, as validated by Reno, Hansen and
 * Stein, Sandia SAND2012-2389): needs only the zenith angle and is within a few percent of
 * Ineichen's model for average turbidity.
 */
export function clearSkyGhiW(cosZenith: number): number {
  if (cosZenith <= 0) return 0;
  return 1098 * cosZenith * Math.exp(-0.059 / cosZenith);
}

/**
 * Diffuse fraction of global horizontal irradiance from the clearness index kt (Erbs, Klein and
 * Duffie 1982): overcast hours are nearly all diffuse, clear hours mostly beam.
 */
export function diffuseFraction(kt: number): number {
  if (kt <= 0.22) return 1 - 0.09 * kt;
  if (kt <= 0.8) return 0.9511 - 0.1604 * kt + 4.388 * kt ** 2 - 16.638 * kt ** 3 + 12.336 * kt ** 4;
  return 0.165;
}

/** Glass reflection loss on beam light at angle of incidence θ (ASHRAE model, b0 = 0.05, as in PVWatts). */
export function beamIncidenceModifier(cosIncidence: number): number {
  if (cosIncidence <= 0.1) return 0;
  return Math.max(0, 1 - 0.05 * (1 / cosIncidence - 1));
}

export interface SunPosition {
  /** Degrees above the horizon. */
  altitudeDeg: number;
  /** Degrees clockwise from north. */
  azimuthDeg: number;
}

export interface PlaneOfArray {
  tiltDeg: number;
  /** Degrees clockwise from north: 180 faces south. */
  azimuthDeg: number;
  /** Ground reflectance; 0.2 is the usual grass/urban value. */
  albedo: number;
}

/** Cosine of the angle between the sun and the panel's normal. */
export function cosIncidence(sun: SunPosition, plane: PlaneOfArray): number {
  const zenith = (90 - sun.altitudeDeg) * DEG;
  const tilt = plane.tiltDeg * DEG;
  return (
    Math.cos(zenith) * Math.cos(tilt) +
    Math.sin(zenith) * Math.sin(tilt) * Math.cos((sun.azimuthDeg - plane.azimuthDeg) * DEG)
  );
}

/**
 * Plane-of-array irradiance, W/m², from global horizontal irradiance: Erbs splits it into beam
 * and diffuse, the beam is projected onto the panel, the sky diffuse follows Hay and Davies
 * (1980: the circumsolar share, in proportion to how much beam gets through, comes from the
 * sun's direction, the rest evenly from the sky) and the ground reflects the rest.
 */
export function planeOfArrayW(
  ghiW: number,
  sun: SunPosition,
  plane: PlaneOfArray,
  dayOfYear: number,
): number {
  const cosZenith = Math.sin(sun.altitudeDeg * DEG);
  if (ghiW <= 0 || cosZenith <= 0) return 0;
  const topNormalW = extraterrestrialNormalW(dayOfYear);
  const kt = Math.min(1, ghiW / (topNormalW * cosZenith));
  const dhi = ghiW * diffuseFraction(kt);
  // Low sun: the beam share is capped so grazing hours cannot blow up through 1/cos(zenith).
  const dni = Math.min((ghiW - dhi) / Math.max(cosZenith, 0.087), topNormalW);
  const cosAoi = cosIncidence(sun, plane);
  const tilt = plane.tiltDeg * DEG;
  const beam = cosAoi > 0 ? dni * cosAoi * beamIncidenceModifier(cosAoi) : 0;
  const anisotropy = dni / topNormalW;
  const projection = Math.max(0, cosAoi) / Math.max(cosZenith, 0.087);
  const skyDiffuse = dhi * (anisotropy * projection + ((1 - anisotropy) * (1 + Math.cos(tilt))) / 2);
  const groundReflected = (ghiW * plane.albedo * (1 - Math.cos(tilt))) / 2;
  return beam + skyDiffuse + groundReflected;
}
