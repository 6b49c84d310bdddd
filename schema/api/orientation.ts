import { z } from "zod";

/** Where an effective value comes from: the system's own, its site's, or the default. */
export const orientationSources = ["system", "site", "default"] as const;
export type OrientationSource = (typeof orientationSources)[number];

/** Where the AC limit comes from: the system's own, its site's (a one-system site) or its inverters' ratings. */
export const acLimitSources = ["system", "site", "inverters"] as const;
export type AcLimitSource = (typeof acLimitSources)[number];

/**
 * A system's orientation and AC limit: the values set on it (null when not set) and those the
 * expected-energy model uses. Tilt defaults to the latitude's optimum and azimuth to facing the
 * equator; without a place there is no default (null).
 */
export const systemOrientationSchema = z.object({
  tiltDeg: z.number().nullable(),
  azimuthDeg: z.number().nullable(),
  acLimitKw: z.number().nullable(),
  effective: z.object({
    tiltDeg: z.number().nullable(),
    tiltSource: z.enum(orientationSources).nullable(),
    azimuthDeg: z.number().nullable(),
    azimuthSource: z.enum(orientationSources).nullable(),
    /** Null when nothing tells it: clipping is then not looked for. */
    acLimitKw: z.number().nullable(),
    acLimitSource: z.enum(acLimitSources).nullable(),
  }),
});
export type SystemOrientation = z.infer<typeof systemOrientationSchema>;
