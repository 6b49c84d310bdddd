import { effectiveOrientation, type OrientationInput } from "./orientation";
import { DEFAULT_CALIBRATION, type PvSystem } from "./pv-model";

/** What a system's own days taught the model (the fleet store's system_models); null before any. */
export interface LearnedModel {
  calibration: number;
  /** The AC limit its power showed, W; an entered one takes precedence. */
  inferredAcLimitW: number | null;
}

export interface ModelledSystemInput {
  capacityW: number | null;
  latitude: number | null;
  longitude: number | null;
  orientation: OrientationInput;
}

/**
 * The one expected-power model of a system (pv-model.ts): its capacity and place, the effective
 * tilt, azimuth and AC limit (its own, its site's, the defaults), and what its days taught it.
 * Null without a capacity or a place: nothing can be expected of it.
 */
export function pvSystemOf(input: ModelledSystemInput, learned: LearnedModel | null): PvSystem | null {
  const { capacityW, latitude, longitude } = input;
  if (capacityW === null || capacityW <= 0 || latitude === null || longitude === null) return null;
  const effective = effectiveOrientation(input.orientation).effective;
  const enteredAcLimitW = effective.acLimitKw === null ? null : effective.acLimitKw * 1000;
  return {
    capacityW,
    latitude,
    longitude,
    tiltDeg: effective.tiltDeg ?? 0,
    azimuthDeg: effective.azimuthDeg ?? (latitude >= 0 ? 180 : 0),
    acLimitW: enteredAcLimitW ?? learned?.inferredAcLimitW ?? null,
    calibration: learned?.calibration ?? DEFAULT_CALIBRATION,
  };
}
