import { getPosition } from "suncalc";
import { lastLocalDays } from "../energy/local-day";

/** At least this many past days are fetched for a new connection (the "30 days of 5-minute power"). */
export const HISTORY_DAYS = 30;
/** A daylight stretch this long without a point is a gap; the live cadence is 5 minutes. */
export const GAP_SLOT_MS = 15 * 60_000;

/** What the store holds of one system, for gap detection. */
export interface SystemCoverage {
  timezone: string;
  latitude: number | null;
  longitude: number | null;
  /** Epoch ms of every stored point in the window (any order). */
  pointTimes: number[];
  /** Plant-local days already read from the vendor's history. */
  fetchedDays: ReadonlySet<string>;
}

export interface GapOptions {
  now: number;
  /** Local days looked at, ending with today. */
  days?: number;
  /** A daylight slot this long without a point makes its day due (the cadence the connection is polled at). */
  slotMs?: number;
}

/** The sun above the horizon at the plant (a plant without coordinates counts every hour as daylight). */
function daylight(coverage: SystemCoverage, at: number): boolean {
  if (coverage.latitude === null || coverage.longitude === null) return true;
  // suncalc 2 answers the altitude in degrees.
  return getPosition(new Date(at), coverage.latitude, coverage.longitude).altitude > 0;
}

/**
 * The plant-local days (oldest first) whose past should be fetched from the vendor: within the
 * last `days` days, each day not yet read from history that has a daylight slot with no stored
 * point, up to one slot before `now` (today is looked at too, and never counted as fetched,
 * because it is not over). Night slots are not asked for: many inverters report nothing at night.
 * A new connection has no points, so every day is due; after an outage or a paused connection,
 * the days it covered are.
 */
export function daysToBackfill(coverage: SystemCoverage, options: GapOptions): string[] {
  const slotMs = options.slotMs ?? GAP_SLOT_MS;
  const days = lastLocalDays(options.now, coverage.timezone, options.days ?? HISTORY_DAYS + 1);
  const filled = new Set(coverage.pointTimes.map((t) => Math.floor(t / slotMs)));
  const until = options.now - slotMs;
  const today = days.at(-1)?.date;
  const due: string[] = [];
  const emptyDaylightSlot = (slot: number) =>
    !filled.has(slot) && daylight(coverage, slot * slotMs + slotMs / 2);
  for (const day of days) {
    if (day.date !== today && coverage.fetchedDays.has(day.date)) continue;
    const first = Math.ceil(day.startMs / slotMs);
    const end = Math.floor(Math.min(day.endMs, until) / slotMs);
    // The slot at solar noon first: an empty day is then settled with one sun position, not one
    // per night slot before dawn (a new 20,000-plant connection plans 620,000 days).
    const noon = solarNoonSlot(coverage, day.startMs, slotMs);
    if (
      (noon !== null && noon >= first && noon < end && emptyDaylightSlot(noon)) ||
      anySlot(first, end, emptyDaylightSlot)
    ) {
      due.push(day.date);
    }
  }
  return due;
}

function anySlot(first: number, end: number, test: (slot: number) => boolean): boolean {
  for (let slot = first; slot < end; slot++) if (test(slot)) return true;
  return false;
}

/** The slot holding the plant's approximate solar noon on the local day starting at `dayStartMs`. */
function solarNoonSlot(coverage: SystemCoverage, dayStartMs: number, slotMs: number): number | null {
  if (coverage.longitude === null) return null;
  // 12:00 mean solar time at the longitude, on the UTC date around the local day's middle.
  const middle = dayStartMs + 12 * 3_600_000;
  const utcMidnight = Math.floor(middle / 86_400_000) * 86_400_000;
  let noon = utcMidnight + (12 - coverage.longitude / 15) * 3_600_000;
  if (noon < dayStartMs) noon += 86_400_000;
  if (noon >= dayStartMs + 86_400_000) noon -= 86_400_000;
  return Math.floor(noon / slotMs);
}
