import type { LossTotalsRow, lossRowCounts } from "./data/losses";
import type { tableRowCounts } from "./data/reads";
import type { MetricParts } from "./read-models/parts";
import { noLossesSettled, type SettledLosses } from "./schedule";

/*
 * The answers of an organisation's stores (its own object's and its shards', see ./shards.ts)
 * joined into the one answer a single store gives: a site's or an hour's sums may come from
 * several stores, since a site's systems may be held by different ones.
 */

/** Every store's slices and calibrations in one list. */
export function joinedMetricParts(parts: MetricParts[]): MetricParts {
  return {
    slices: parts.flatMap((part) => part.slices),
    calibrations: parts.flatMap((part) => part.calibrations),
  };
}

/**
 * Rows with the same key made one: the first copied, each later one added into it by `add`;
 * in the order their keys first came.
 */
export function addRowsByKey<T extends object>(
  rows: T[],
  keyOf: (row: T) => string | number,
  add: (held: T, row: T) => void,
): T[] {
  const byKey = new Map<string | number, T>();
  for (const row of rows) {
    const key = keyOf(row);
    const held = byKey.get(key);
    if (held) add(held, row);
    else byKey.set(key, { ...row });
  }
  return [...byKey.values()];
}

/** Power summed per hour over the stores' systems. */
export function addHourlyPower(rows: { hour_start: number; power_w: number | null }[]) {
  return addRowsByKey(
    rows,
    (row) => row.hour_start,
    (held, row) => {
      if (row.power_w !== null) held.power_w = (held.power_w ?? 0) + row.power_w;
    },
  ).sort((a, b) => a.hour_start - b.hour_start);
}

type LossSums = Omit<LossTotalsRow, never>;
const LOSS_SUMS: (keyof LossSums)[] = [
  "expected_wh",
  "actual_wh",
  "weather_wh",
  "downtime_wh",
  "partial_outage_wh",
  "clipping_wh",
  "soiling_wh",
  "underperformance_wh",
  "unmeasured_wh",
];

/** Adds `from`'s loss sums into `into`. */
export function addLossSums(into: LossTotalsRow, from: LossTotalsRow): void {
  for (const key of LOSS_SUMS) into[key] = (into[key] ?? 0) + (from[key] ?? 0);
}

/** One row per site and date, in date order: the stores' sums and system counts added. */
export function addSiteDayLosses<
  T extends LossTotalsRow & { site_id: string | null; date: string; systems: number },
>(rows: T[]): T[] {
  return addRowsByKey(
    rows,
    (row) => `${row.date}|${row.site_id}`,
    (held, row) => {
      addLossSums(held, row);
      held.systems += row.systems;
    },
  ).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

type StoreStats = {
  rows: ReturnType<typeof tableRowCounts>;
  losses: ReturnType<typeof lossRowCounts>;
  databaseBytes: number;
};

/** The stores' rows and bytes added up, with each store's bytes (this one first). */
export function addStorageStats([first, ...others]: StoreStats[]) {
  if (!first) throw new Error("no store answered");
  const total = {
    rows: { ...first.rows },
    losses: first.losses ? { ...first.losses } : first.losses,
    databaseBytes: first.databaseBytes,
    stores: [first.databaseBytes],
  };
  for (const stats of others) {
    for (const key of Object.keys(total.rows) as (keyof StoreStats["rows"])[]) {
      // Each store has a table per day it holds points of: the days are the same days.
      total.rows[key] =
        key === "pointDays" ? Math.max(total.rows[key], stats.rows[key]) : total.rows[key] + stats.rows[key];
    }
    if (total.losses && stats.losses) {
      for (const key of Object.keys(total.losses) as (keyof NonNullable<StoreStats["losses"]>)[]) {
        total.losses[key] += stats.losses[key];
      }
    }
    total.databaseBytes += stats.databaseBytes;
    total.stores.push(stats.databaseBytes);
  }
  return total;
}

/** The stores' loss passes added up; `ms` the longest store's (they ran side by side). */
export function addSettled(passes: SettledLosses[]): SettledLosses {
  const total = noLossesSettled();
  for (const pass of passes) {
    for (const key of Object.keys(total) as (keyof SettledLosses)[]) {
      total[key] = key === "ms" ? Math.max(total.ms, pass.ms) : total[key] + pass[key];
    }
  }
  return total;
}
