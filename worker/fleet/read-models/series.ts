import type { FleetSeries, ProviderHour } from "../../../schema/api/fleet-series";
import type { ProviderId } from "../../../schema/api/providers";
import { type LocalDay, lastLocalDays, localDayOf, sameTimeDayBefore } from "../../domain/energy/local-day";
import { performanceRatio } from "../../domain/solar/pv-model";
import { yieldTurn } from "../../lib/yield-turn";
import { type SystemKeyRange, systemKeyRanges } from "../data/reads";
import {
  countedZones,
  type ProviderHourRow,
  sumAccountedDays,
  sumHourlyPowerByProvider,
  sumSameTimeEnergy,
} from "../data/series";
import type { FleetDb } from "../db";

/** Today's PR is compared with the median of this many complete local days before today. */
export const PR_BASELINE_DAYS = 7;
/** Today's change against yesterday is given only when this share of today's reporting systems had a yesterday. */
export const COMPARED_SHARE = 0.9;

/** Today's energy against the same time yesterday, summed over a store's systems. */
export interface SameTimeTotals {
  systems: number;
  reporting: number;
  reporting_compared: number;
  today_wh: number;
  yesterday_wh: number;
}

/**
 * What one store adds to the fleet series from the systems it holds: today's hourly power by
 * provider, today's and yesterday's energy to the same time, and each of the previous days'
 * accounted actual and expected energy (index 0 the oldest). Sums only, so the organisation's
 * object adds its shards' parts up (finishFleetSeries).
 */
export interface SeriesParts {
  hourRows: ProviderHourRow[];
  sameTime: SameTimeTotals;
  past: { actualWh: number; expectedWh: number }[];
}

/**
 * A store's part of the fleet series in the viewer's zone `tz` at `now`. Each read is a query per
 * range of 1,000 systems, a turn apart; none reads D1 (the accounts hold each day's expectation:
 * the weather of every place and day is not read again).
 */
export async function fleetSeriesParts(store: FleetDb, tz: string, now: number): Promise<SeriesParts> {
  // Rollup hours are UTC hours: in a zone with a half-hour offset the first is 00:30 local.
  const viewerToday = localDayOf(now, tz);
  const zones = countedZones(store);
  // Every large read is made a range of systems per turn (see yieldTurn): a 20,000-system series
  // takes over a second, which a sync page would otherwise wait out.
  const ranges = systemKeyRanges(store);
  const hourRows = await perRange(ranges, (range) =>
    sumHourlyPowerByProvider(store, range, viewerToday.startMs, now),
  );
  // Each system zone's previous days and today, oldest first: every day is counted in its own zone.
  const daysByZone = new Map(zones.map((zone) => [zone, lastLocalDays(now, zone, PR_BASELINE_DAYS + 1)]));
  const windows = [...daysByZone].map(([zone, days]) => ({
    zone,
    yesterdayStart: dayAt(days, -2).startMs,
    sameTimeYesterday: sameTimeDayBefore(now, zone),
    todayStart: dayAt(days, -1).startMs,
    now,
  }));
  const sameTime = emptySameTime();
  for (const part of await perRange(ranges, (range) => [sumSameTimeEnergy(store, range, windows)])) {
    addSameTime(sameTime, part);
  }
  // Index i: the i-th day before today in every zone (each zone's own calendar date), 0 the oldest.
  const days = [...daysByZone].flatMap(([zone, zoneDays]) =>
    zoneDays.slice(0, PR_BASELINE_DAYS).map((day, index) => ({ zone, date: day.date, day: index })),
  );
  const past = emptyPast();
  for (const row of await perRange(ranges, (range) => sumAccountedDays(store, range, days))) {
    const totals = past[row.day];
    if (!totals) continue;
    totals.actualWh += row.actual_wh;
    totals.expectedWh += row.expected_wh;
  }
  return { hourRows, sameTime, past };
}

const emptySameTime = (): SameTimeTotals => ({
  systems: 0,
  reporting: 0,
  reporting_compared: 0,
  today_wh: 0,
  yesterday_wh: 0,
});

const emptyPast = () => Array.from({ length: PR_BASELINE_DAYS }, () => ({ actualWh: 0, expectedWh: 0 }));

function addSameTime(into: SameTimeTotals, part: SameTimeTotals): void {
  for (const key of Object.keys(into) as (keyof SameTimeTotals)[]) into[key] += part[key];
}

/**
 * The dashboard's fleet series from the parts of every store holding the organisation's systems:
 * today's generation by provider, today against the same time yesterday, and today's performance
 * ratio (`todayPr`, the dashboard model's, so the card and its comparison share one expectation)
 * against the median of the previous days' PR in the loss accounts.
 */
export function finishFleetSeries(
  parts: SeriesParts[],
  tz: string,
  now: number,
  todayPr: number | null,
): FleetSeries {
  const viewerToday = localDayOf(now, tz);
  const sameTime = emptySameTime();
  const past = emptyPast();
  for (const part of parts) {
    addSameTime(sameTime, part.sameTime);
    for (const [day, totals] of part.past.entries()) {
      const into = past[day];
      if (!into) continue;
      into.actualWh += totals.actualWh;
      into.expectedWh += totals.expectedWh;
    }
  }
  // The card sets the change beside the fleet's whole energy today: it is a change of the fleet only
  // when nearly every system reporting today had a yesterday (not while a history is arriving).
  const comparable = sameTime.reporting_compared >= COMPARED_SHARE * sameTime.reporting;
  return {
    timezone: tz,
    generatedAt: new Date(now).toISOString(),
    day: {
      start: new Date(viewerToday.startMs).toISOString(),
      end: new Date(viewerToday.endMs).toISOString(),
    },
    generation: providerHours(parts.flatMap((part) => part.hourRows)),
    today: {
      energyWh: Math.round(sameTime.today_wh),
      yesterdaySameTimeWh: Math.round(sameTime.yesterday_wh),
      changePct: comparable ? percentChange(sameTime.today_wh, sameTime.yesterday_wh) : null,
      systemCount: sameTime.systems,
    },
    performance: fleetPerformance(past, todayPr),
  };
}

function dayAt(days: LocalDay[], index: number): LocalDay {
  const day = days.at(index);
  if (!day) throw new Error("lastLocalDays answered fewer days than asked");
  return day;
}

/** One read per range of system keys, each on its own turn, the rows of all of them in one list. */
async function perRange<T>(ranges: SystemKeyRange[], read: (range: SystemKeyRange) => T[]): Promise<T[]> {
  const rows: T[] = [];
  for (const range of ranges) {
    await yieldTurn();
    rows.push(...read(range));
  }
  return rows;
}

function providerHours(rows: ProviderHourRow[]): ProviderHour[] {
  const byHour = new Map<number, ProviderHour["values"]>();
  for (const row of rows) {
    const values = byHour.get(row.hour_start) ?? {};
    const provider = row.provider as ProviderId;
    values[provider] = (values[provider] ?? 0) + row.power_w;
    byHour.set(row.hour_start, values);
  }
  return [...byHour].map(([hourStart, values]) => ({
    time: new Date(hourStart).toISOString(),
    values: Object.fromEntries(
      Object.entries(values).map(([provider, powerW]) => [provider, Math.round(powerW)]),
    ) as ProviderHour["values"],
  }));
}

/**
 * Fleet PR per finished day from the loss accounts (actual over expected energy summed over the
 * counted systems accounted that day, each with its own calibration, as today's PR is), and
 * today's against their median. A day no system was accounted for is left out.
 */
function fleetPerformance(
  past: { actualWh: number; expectedWh: number }[],
  todayPr: number | null,
): FleetSeries["performance"] {
  const dailyPrs = past
    .map((totals) => performanceRatio(totals.actualWh, totals.expectedWh))
    .filter((pr): pr is number => pr !== null);
  const medianPr7d = median(dailyPrs);
  const today = todayPr === null ? null : Math.round(todayPr * 1000) / 1000;
  return {
    todayPr: today,
    medianPr7d,
    changePct: today === null || medianPr7d === null ? null : percentChange(today, medianPr7d),
    dayCount: dailyPrs.length,
  };
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

/** Percent change with one decimal; null against a base of 0 (no honest percentage exists). */
function percentChange(current: number, base: number): number | null {
  if (!(base > 0)) return null;
  return Math.round(((current - base) / base) * 1000) / 10;
}
