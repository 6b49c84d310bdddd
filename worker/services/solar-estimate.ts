import type { EstimateYieldBody, YieldEstimateResponse } from "../../schema/api/solar";
import { estimateYield, type YieldEstimate } from "../domain/solar/yield";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";

/**
 * Estimates per kWp, remembered per isolate: the create-site wizard asks again for the same
 * place whenever the capacity changes, and the answer only scales with it.
 */
const perKwpCache = new Map<string, YieldEstimate>();
const CACHE_ENTRIES = 256;

function perKwpEstimate(body: EstimateYieldBody): YieldEstimate {
  const acLimitPerKwp = body.acLimitKw === undefined ? undefined : body.acLimitKw / body.capacity;
  const key = [
    body.latitude.toFixed(3),
    body.longitude.toFixed(3),
    body.tiltDeg ?? "",
    body.azimuthDeg ?? "",
    acLimitPerKwp?.toFixed(3) ?? "",
  ].join("|");
  const cached = perKwpCache.get(key);
  if (cached) return cached;
  const estimate = estimateYield({
    latitude: body.latitude,
    longitude: body.longitude,
    capacityKw: 1,
    tiltDeg: body.tiltDeg,
    azimuthDeg: body.azimuthDeg,
    acLimitKw: acLimitPerKwp,
  });
  // Oldest first in a Map's order: drop it once full.
  if (perKwpCache.size >= CACHE_ENTRIES) perKwpCache.delete(perKwpCache.keys().next().value ?? "");
  perKwpCache.set(key, estimate);
  return estimate;
}

const round = (value: number, digits = 0) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/** The yield estimate for a location and capacity (kW), from the physical model in domain/solar. */
export function estimateSiteYield(ctx: UserContext, body: EstimateYieldBody): YieldEstimateResponse {
  authorizeOrgAction(ctx, "org:read");
  const perKwp = perKwpEstimate(body);
  const annualYield = perKwp.annualYieldKwh * body.capacity;
  return {
    annualYield: round(annualYield),
    monthlyAverage: round(annualYield / 12),
    monthlyYield: perKwp.monthlyYieldKwh.map((kwh) => round(kwh * body.capacity)),
    specificYield: round(perKwp.specificYieldKwhPerKwp),
    peakSunHours: round(perKwp.peakSunHours, 2),
    solarIrradiance: round(perKwp.ghiKwhPerM2Day, 2),
    performanceRatio: round(perKwp.performanceRatio, 3),
    tiltDeg: round(perKwp.tiltDeg, 1),
    azimuthDeg: round(perKwp.azimuthDeg, 1),
  };
}
