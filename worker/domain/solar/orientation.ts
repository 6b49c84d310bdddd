import type { SystemOrientation } from "../../../schema/api/orientation";
import { equatorFacingAzimuthDeg, optimalTiltDeg } from "./yield";

/** What a system's orientation is worked out from: its own values, its site's, its place, its inverters. */
export interface OrientationInput {
  system: {
    tiltDeg: number | null;
    azimuthDeg: number | null;
    acLimitKw: number | null;
    latitude: number | null;
  };
  /** The site it is attached to, with how many systems the site has; null when on none. */
  site: {
    tiltDeg: number | null;
    azimuthDeg: number | null;
    acLimitKw: number | null;
    latitude: number;
    systemCount: number;
  } | null;
  /** The sum of its inverters' rated AC power in W when every inverter has one; else null. */
  invertersRatedW: number | null;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * A system's effective tilt, azimuth and AC limit, computed where read (never stored): its own
 * value, else its site's, else the default. Tilt defaults to the latitude's optimum (Jacobson and
 * Jadhav 2018) and azimuth to facing the equator (180° north of it, 0° south of it). The AC limit
 * falls back to the site's only on a one-system site (a site's limit is the site's, not each
 * system's), then to the sum of the inverters' ratings when every inverter has one.
 */
export function effectiveOrientation({ system, site, invertersRatedW }: OrientationInput): SystemOrientation {
  const latitude = system.latitude ?? site?.latitude ?? null;
  const tilt =
    system.tiltDeg !== null
      ? { value: system.tiltDeg, source: "system" as const }
      : site?.tiltDeg != null
        ? { value: site.tiltDeg, source: "site" as const }
        : latitude !== null
          ? { value: round1(optimalTiltDeg(latitude)), source: "default" as const }
          : null;
  const azimuth =
    system.azimuthDeg !== null
      ? { value: system.azimuthDeg, source: "system" as const }
      : site?.azimuthDeg != null
        ? { value: site.azimuthDeg, source: "site" as const }
        : latitude !== null
          ? { value: equatorFacingAzimuthDeg(latitude), source: "default" as const }
          : null;
  const acLimit =
    system.acLimitKw !== null
      ? { value: system.acLimitKw, source: "system" as const }
      : site?.acLimitKw != null && site.systemCount === 1
        ? { value: site.acLimitKw, source: "site" as const }
        : invertersRatedW !== null && invertersRatedW > 0
          ? { value: Math.round(invertersRatedW) / 1000, source: "inverters" as const }
          : null;
  return {
    tiltDeg: system.tiltDeg,
    azimuthDeg: system.azimuthDeg,
    acLimitKw: system.acLimitKw,
    effective: {
      tiltDeg: tilt?.value ?? null,
      tiltSource: tilt?.source ?? null,
      azimuthDeg: azimuth?.value ?? null,
      azimuthSource: azimuth?.source ?? null,
      acLimitKw: acLimit?.value ?? null,
      acLimitSource: acLimit?.source ?? null,
    },
  };
}
