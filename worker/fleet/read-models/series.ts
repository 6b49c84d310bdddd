import type { FleetSeries, ProviderHour } from "../../../schema/api/fleet-series";
import type { ProviderId } from "../../../schema/api/providers";
import type { IrradianceWindow } from "../../data/irradiance";
import { type LocalDay, lastLocalDays, localDayOf, sameTimeDayBefore } from "../../domain/energy/local-day";
import { DEFAULT_CALIBRATION, performanceRatio } from "../../domain/solar/pv-model";
import type { Db } from "../../lib/db";
import { yieldTurn } from "../../lib/yield-turn";
import { type SystemKeyRange, systemKeyRanges } from "../data/reads";
import {
  type FleetGroupRow,
  listFleetGroups,
  type ProviderHourRow,
  sumDailyEnergyByGroup,
  sumHourlyPowerByProvider,
  sumSameTimeEnergy,
  sumTodayEnergyByGroup,
} from "../data/series";
import type { FleetDb } from "../db";
import { expectedFromYield, readIrradiation } from "./system-metrics";

/** Today's PR is compared with the median of this many complete local days before today. */
export const PR_BASELINE_DAYS = 7;
/** Today's change against yesterday is given only when this share of today's reporting systems had a yesterday. */
export const COMPARED_SHARE = 0.9;

/**
 * The dashboard's fleet series: today's generation by provider, today against the same time
 * yesterday, and today's performance ratio against its 7-day median: the zone/location groups,
 * then the hourly chart, the same-time energy, the stored daily energy and today's counters from
 * the store (each a query per range of 1,000 systems, a turn apart), and the irradiance of every
 * group and day at once from D1.
 */
export async function buildFleetSeries(
  store: FleetDb,
  d1: Db,
  tz: string,
  now: number,
): Promise<FleetSeries> {
  // Rollup hours are UTC hours: in a zone with a half-hour offset the first is 00:30 local.
  const viewerToday = localDayOf(now, tz);
  const groups = listFleetGroups(store);
  // Every large read is made a range of systems per turn (see yieldTurn): a 20,000-system series
  // takes over a second, which a sync page would otherwise wait out.
  const ranges = systemKeyRanges(store);
  const hourRows = await perRange(ranges, (range) =>
    sumHourlyPowerByProvider(store, range, viewerToday.startMs, now),
  );
  // Each system zone's previous days and today, oldest first: every day is counted in its own zone.
  const daysByZone = new Map(
    groups.map((group) => [group.zone, lastLocalDays(now, group.zone, PR_BASELINE_DAYS + 1)]),
  );
  const windows = [...daysByZone].map(([zone, days]) => ({
    zone,
    yesterdayStart: dayAt(days, -2).startMs,
    sameTimeYesterday: sameTimeDayBefore(now, zone),
    todayStart: dayAt(days, -1).startMs,
    now,
  }));
  const sameTime = { systems: 0, reporting: 0, reporting_compared: 0, today_wh: 0, yesterday_wh: 0 };
  for (const part of await perRange(ranges, (range) => [sumSameTimeEnergy(store, range, windows)])) {
    for (const key of Object.keys(sameTime) as (keyof typeof sameTime)[]) sameTime[key] += part[key];
  }
  // The card sets the change beside the fleet's whole energy today: it is a change of the fleet only
  // when nearly every system reporting today had a yesterday (not while a history is arriving).
  const comparable = sameTime.reporting_compared >= COMPARED_SHARE * sameTime.reporting;
  const performance = await fleetPerformance(store, d1, ranges, groups, daysByZone, now);
  return {
    timezone: tz,
    generatedAt: new Date(now).toISOString(),
    day: {
      start: new Date(viewerToday.startMs).toISOString(),
      end: new Date(viewerToday.endMs).toISOString(),
    },
    generation: providerHours(hourRows),
    today: {
      energyWh: Math.round(sameTime.today_wh),
      yesterdaySameTimeWh: Math.round(sameTime.yesterday_wh),
      changePct: comparable ? percentChange(sameTime.today_wh, sameTime.yesterday_wh) : null,
      systemCount: sameTime.systems,
    },
    performance,
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

/** Rows of the same key added up into one (the ranges' partial sums of a group). */
function addedUp<T>(rows: T[], keyOf: (row: T) => string, add: (total: T, row: T) => void): T[] {
  const totals = new Map<string, T>();
  for (const row of rows) {
    const key = keyOf(row);
    const total = totals.get(key);
    if (total) add(total, row);
    else totals.set(key, { ...row });
  }
  return [...totals.values()];
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

interface EnergyTotals {
  actualWh: number;
  expectedWh: number;
}

/**
 * Fleet PR per day: actual over expected energy summed over the systems with an expectation.
 * Systems sharing a zone and location share the day's weather, and the expectation is linear in
 * capacity, so each group's systems are taken together (their place's reference yield, domain/
 * solar/reference-yield.ts, times their capacity).
 */
async function fleetPerformance(
  store: FleetDb,
  d1: Db,
  ranges: SystemKeyRange[],
  groups: FleetGroupRow[],
  daysByZone: Map<string, LocalDay[]>,
  now: number,
): Promise<FleetSeries["performance"]> {
  const zones = [...new Set(groups.filter((group) => group.location_key !== null).map((g) => g.zone))];
  const windows = new Map<string, IrradianceWindow>();
  for (const group of groups) {
    if (group.location_key === null) continue;
    for (const day of daysByZone.get(group.zone) ?? []) {
      // One window per location and day start, as metrics.ts builds them: a repeat would be summed twice.
      windows.set(`${group.location_key}|${day.startMs}`, {
        key: group.location_key,
        start: day.startMs,
        end: Math.min(day.endMs, now),
      });
    }
  }
  const pastDays = (zone: string) => (daysByZone.get(zone) ?? []).slice(0, PR_BASELINE_DAYS);
  const pastZoneDays = zones.flatMap((zone) => pastDays(zone).map((day) => ({ zone, date: day.date })));
  const dailyRows = addedUp(
    await perRange(ranges, (range) => sumDailyEnergyByGroup(store, range, pastZoneDays)),
    (row) => `${row.zone}|${row.location_key}|${row.date}`,
    (total, row) => {
      total.energy_wh += row.energy_wh;
      total.capacity_w += row.capacity_w;
    },
  );
  const todays = zones.map((zone) => ({ zone, ...dayAt(daysByZone.get(zone) ?? [], -1) }));
  const todayRows = addedUp(
    await perRange(ranges, (range) => sumTodayEnergyByGroup(store, range, todays)),
    (row) => `${row.zone}|${row.location_key}`,
    (total, row) => {
      total.energy_wh += row.energy_wh;
      total.capacity_w += row.capacity_w;
    },
  );
  const yields = await readIrradiation(d1, [...windows.values()]);
  // Summed per place, the fleet's expectation takes PVWatts' calibration for every system.
  const expectedWh = (locationKey: string, day: LocalDay, capacityW: number) => {
    const whPerKw = yields.get(`${locationKey}|${day.startMs}`);
    return whPerKw === undefined ? 0 : expectedFromYield(capacityW, DEFAULT_CALIBRATION, whPerKw);
  };

  // Index i: the i-th day before today in every zone (each zone's own calendar date).
  const past: EnergyTotals[] = Array.from({ length: PR_BASELINE_DAYS }, () => ({
    actualWh: 0,
    expectedWh: 0,
  }));
  for (const row of dailyRows) {
    const days = pastDays(row.zone);
    const index = days.findIndex((day) => day.date === row.date);
    const day = days[index];
    const totals = past[index];
    if (!day || !totals) continue;
    addExpected(totals, row.energy_wh, expectedWh(row.location_key, day, row.capacity_w));
  }
  const today: EnergyTotals = { actualWh: 0, expectedWh: 0 };
  for (const row of todayRows) {
    const day = dayAt(daysByZone.get(row.zone) ?? [], -1);
    addExpected(today, row.energy_wh, expectedWh(row.location_key, day, row.capacity_w));
  }

  const dailyPrs = past
    .map((totals) => performanceRatio(totals.actualWh, totals.expectedWh))
    .filter((pr): pr is number => pr !== null);
  const todayPr = performanceRatio(today.actualWh, today.expectedWh);
  const medianPr7d = median(dailyPrs);
  return {
    todayPr,
    medianPr7d,
    changePct: todayPr === null || medianPr7d === null ? null : percentChange(todayPr, medianPr7d),
    dayCount: dailyPrs.length,
  };
}

/** A group counts only when something was expected of it (no irradiance or night: nothing to compare). */
function addExpected(totals: EnergyTotals, actualWh: number, expectedWh: number): void {
  if (expectedWh <= 0) return;
  totals.actualWh += actualWh;
  totals.expectedWh += expectedWh;
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
