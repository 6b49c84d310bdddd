import { type LossTotalsRow, lossesBySiteAndPeriod, systemZones } from "../data/losses";
import { calibrations } from "../data/models";
import { allLiveValues, type MetricRows, readFleetMetricSlices } from "../data/reads";
import type { FleetDb } from "../db";
import { zoneWindows } from "../losses";
import { addLossSums, addRowsByKey, joinedMetricParts } from "../shard-answers";
import type { LiveValues } from "../types";
import { fleetSeriesParts, type SeriesParts } from "./series";

/*
 * What the organisation's read models read of the systems one store holds: plain rows and sums,
 * so the organisation's object builds its models from its own store's parts and its shards' alike
 * (worker/fleet/shards.ts), each shard answering the same functions over the systems it holds.
 */

/** The systems' dashboard rows in slices, with their learned calibrations (D1 ids). */
export interface MetricParts {
  slices: MetricRows[];
  calibrations: [string, number][];
}

/** A site's loss accounts over a price period, summed over the systems one store holds. */
export type SiteLossRow = LossTotalsRow & {
  site_id: string;
  site_name: string | null;
  period: number;
  first_date: string;
};

/** The parts a store answers (the organisation's object: its own and its shards', combined). */
export interface FleetParts {
  metricParts(): Promise<MetricParts>;
  liveValues(): Promise<Omit<LiveValues, "state">[]>;
  seriesParts(tz: string, now: number): Promise<SeriesParts[]>;
  /** Every site's accounts over its last `days` finished local days at `now`, per price period (`cuts`). */
  siteLosses(now: number, days: number, cuts: string[]): Promise<SiteLossRow[]>;
}

/** The parts of the systems this store's database holds. */
export function storeParts(db: FleetDb): FleetParts {
  return {
    metricParts: async () => ({
      slices: await readFleetMetricSlices(db),
      calibrations: [...calibrations(db)],
    }),
    liveValues: async () => allLiveValues(db),
    seriesParts: async (tz, now) => [await fleetSeriesParts(db, tz, now)],
    siteLosses: async (now, days, cuts) =>
      lossesBySiteAndPeriod(db, zoneWindows(systemZones(db), now, days), cuts) as SiteLossRow[],
  };
}

/** The parts of several stores as one: lists joined, a site's sums (it may span stores) added up. */
export function joinedParts(parts: FleetParts[]): FleetParts {
  const all = <T>(read: (part: FleetParts) => Promise<T>) => Promise.all(parts.map(read));
  return {
    metricParts: async () => joinedMetricParts(await all((part) => part.metricParts())),
    liveValues: async () => (await all((part) => part.liveValues())).flat(),
    seriesParts: async (tz, now) => (await all((part) => part.seriesParts(tz, now))).flat(),
    siteLosses: async (now, days, cuts) =>
      addSiteLosses((await all((part) => part.siteLosses(now, days, cuts))).flat()),
  };
}

/** One row per site and period: the sums added, the earliest date kept. */
export function addSiteLosses(rows: SiteLossRow[]): SiteLossRow[] {
  return addRowsByKey(
    rows,
    (row) => `${row.period}|${row.site_id}`,
    (held, row) => {
      addLossSums(held, row);
      if (row.first_date < held.first_date) held.first_date = row.first_date;
      held.site_name ??= row.site_name;
    },
  );
}
