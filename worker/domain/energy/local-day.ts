import { DateTime } from "luxon";

/**
 * A plant-local calendar day as a UTC interval. Days are counted in the site's own IANA zone,
 * so a DST day is 23 or 25 hours long; luxon does the zone arithmetic.
 */
export interface LocalDay {
  /** "YYYY-MM-DD" in the zone. */
  date: string;
  startMs: number;
  endMs: number;
}

/** The local day last worked out per zone: most calls ask for the same day again (today's). */
const latestDays = new Map<string, LocalDay>();

export function localDayOf(at: number, zone: string): LocalDay {
  const known = latestDays.get(zone);
  if (known && at >= known.startMs && at < known.endMs) return { ...known };
  const start = DateTime.fromMillis(at, { zone }).startOf("day");
  const end = start.plus({ days: 1 });
  const day = { date: start.toISODate() ?? "", startMs: start.toMillis(), endMs: end.toMillis() };
  latestDays.set(zone, day);
  return { ...day };
}

export function localDay(date: string, zone: string): LocalDay {
  const start = DateTime.fromISO(date, { zone }).startOf("day");
  return { date, startMs: start.toMillis(), endMs: start.plus({ days: 1 }).toMillis() };
}

export const HOUR_MS = 3_600_000;

/**
 * The UTC hours starting inside a local day, the grid hourly rollups and irradiance are stored
 * on: 24 hours, 23 or 25 on DST days. In a zone with a half-hour offset they start at :30 local.
 */
export function hourStartsOf(day: LocalDay): number[] {
  const hours: number[] = [];
  for (let start = Math.ceil(day.startMs / HOUR_MS) * HOUR_MS; start < day.endMs; start += HOUR_MS) {
    hours.push(start);
  }
  return hours;
}

/**
 * The days last worked out per zone and count: they depend only on which local day `at` falls in,
 * and a history plan asks for the same zone's days once per plant (20,000 plants, a dozen zones).
 */
const recentDays = new Map<string, readonly LocalDay[]>();

/** The last `count` local days ending with the one containing `at`, oldest first. */
export function lastLocalDays(at: number, zone: string, count: number): LocalDay[] {
  const key = `${zone}|${count}`;
  const known = recentDays.get(key);
  const today = known?.at(-1);
  if (known && today && at >= today.startMs && at < today.endMs) return known.map((day) => ({ ...day }));
  const start = DateTime.fromMillis(at, { zone }).startOf("day");
  const days = Array.from({ length: count }, (_, i) => {
    const dayStart = start.minus({ days: count - 1 - i });
    return {
      date: dayStart.toISODate() ?? "",
      startMs: dayStart.toMillis(),
      endMs: dayStart.plus({ days: 1 }).toMillis(),
    };
  });
  if (count > 0) recentDays.set(key, days);
  return days.map((day) => ({ ...day }));
}

/**
 * The same wall-clock time one local day earlier. Across a DST change this is 23 or 25 hours
 * back, not 24; luxon keeps the wall clock (a time that did not exist moves forward).
 */
export function sameTimeDayBefore(at: number, zone: string): number {
  return DateTime.fromMillis(at, { zone }).minus({ days: 1 }).toMillis();
}

export interface EnergyPoint {
  time: number;
  /** The vendor's energy-today counter, reset at local midnight. */
  energyTodayWh: number | null;
  powerW: number | null;
}

/**
 * Energy of one local day from its readings: the highest energy-today counter seen that day
 * (vendors reset it at local midnight), or, when a vendor gives no counter, power integrated
 * over the gaps between readings (each gap capped at 15 minutes so an outage adds nothing).
 */
export function dayEnergyWh(points: EnergyPoint[], day: LocalDay): number {
  const inDay = points
    .filter((p) => p.time >= day.startMs && p.time < day.endMs)
    .sort((a, b) => a.time - b.time);
  const counters = inDay.map((p) => p.energyTodayWh).filter((e): e is number => e !== null);
  if (counters.length > 0) return Math.max(...counters);
  let energy = 0;
  for (let i = 1; i < inDay.length; i++) {
    const previous = inDay[i - 1];
    const current = inDay[i];
    if (!previous || !current || previous.powerW === null) continue;
    const gapMs = Math.min(current.time - previous.time, 15 * 60_000);
    energy += (previous.powerW * gapMs) / 3_600_000;
  }
  return Math.round(energy);
}
