import { getPosition } from "suncalc";

/*
 * The fleet's freshness and output rules, defined once for the dashboard, sites, portfolios and
 * the read models. The client shows what the API computed with them and never recomputes them.
 */

/** In daylight, a system whose newest data is older than 30 minutes is stale: offline, not producing 0 W. */
export const STALE_AFTER_MS = 30 * 60_000;

/**
 * Whether the sun is above the horizon at the place and instant (suncalc 2 answers the altitude
 * in degrees). A place that is not known counts as daylight, so missing data is never excused.
 */
export function isDaylight(latitude: number | null, longitude: number | null, at: number): boolean {
  if (latitude === null || longitude === null) return true;
  return getPosition(new Date(at), latitude, longitude).altitude > 0;
}

/** Data older than the staleness limit (or none at all), whatever the sun does. */
export const isOutdated = (dataTime: number | null, now: number) =>
  dataTime === null || now - dataTime > STALE_AFTER_MS;

/** Stale: outdated data while the sun is up at the system's place. */
export const isStale = (
  place: { dataTime: number | null; latitude: number | null; longitude: number | null },
  now: number,
) => isOutdated(place.dataTime, now) && isDaylight(place.latitude, place.longitude, now);
