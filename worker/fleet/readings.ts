import { daysToBackfill, GAP_SLOT_MS, type GapOptions, HISTORY_DAYS } from "../domain/history/gaps";
import { readDetectionInput, readFleetDetectionInput } from "./data/detection";
import { readHistoryCoverage } from "./data/history";
import { energyBySystem, producingHoursBySystem } from "./data/monthly-energy";
import { summedHourlyPower } from "./data/reads";
import { foldOldHours, pruneReadings, type RetentionBudget, type RetentionRun } from "./data/retention";
import { type HistoryDayInput, storeHistoryDay, storePoints } from "./data/writes";
import type { FleetDb } from "./db";
import type { DetectionSystem, SystemPoint } from "./types";

const DAY_MS = 86_400_000;
/** Points per statement: each statement's JSON stays far below SQLite's 2 MB value limit (large imports). */
const POINTS_PER_STATEMENT = 2_000;

/**
 * The organisation's readings and their rollups: every point stored, rolled up, read back by
 * system or period, and pruned goes through here, by system id. The directory, the live values,
 * the read models and the sockets stay with the organisation's object; these are the part that
 * grows with the fleet's history, so a store split into shards (each a bounded set of systems'
 * readings and rollups) replaces this one module: the organisation's object then sends each call
 * to the shards that hold the systems and joins their answers.
 *
 * Writes run inside the caller's transaction (a page's directory and points commit together).
 */
export class Readings {
  constructor(private readonly db: FleetDb) {}

  /** A page's points, rolled up into hours and days; answers the hours and days rolled up. */
  storePoints(points: SystemPoint[]): { hours: number; days: number } {
    const rolled = { hours: 0, days: 0 };
    for (let i = 0; i < points.length; i += POINTS_PER_STATEMENT) {
      const chunk = storePoints(this.db, points.slice(i, i + POINTS_PER_STATEMENT));
      rolled.hours += chunk.hours;
      rolled.days += chunk.days;
    }
    return rolled;
  }

  /** One day of one system's history: idempotent, and only the hours and day whose points are new roll up again. */
  storeHistoryDay(day: HistoryDayInput) {
    return storeHistoryDay(this.db, day);
  }

  /** Per system (of the given ones held), the plant-local days its history should be fetched for. */
  historyGaps(
    systemIds: string[],
    options: GapOptions,
  ): { systemId: string; timezone: string; dates: string[] }[] {
    const days = options.days ?? HISTORY_DAYS + 1;
    // A day more than asked for: the oldest local day starts up to 14 hours before its UTC date.
    const coverage = readHistoryCoverage(
      this.db,
      systemIds,
      options.now - (days + 1) * DAY_MS,
      options.slotMs ?? GAP_SLOT_MS,
    );
    return [...coverage].map(([systemId, system]) => ({
      systemId,
      timezone: system.timezone,
      dates: daysToBackfill(system, options),
    }));
  }

  /** The systems (all, or the listed ones) with their points in [from, to], as fault detection reads them. */
  async detectionInput(systemIds: string[] | null, fromMs: number, toMs: number): Promise<DetectionSystem[]> {
    if (systemIds === null) return readFleetDetectionInput(this.db, fromMs, toMs);
    return readDetectionInput(this.db, systemIds, fromMs, toMs);
  }

  /** Mean power per UTC hour summed over the given systems, hours starting in [start, end). */
  summedHourlyPower(systemIds: string[], startMs: number, endMs: number) {
    return summedHourlyPower(this.db, systemIds, startMs, endMs);
  }

  /** Each system's energy (Wh) summed over the plant-local dates of one month (YYYY-MM). */
  monthlyEnergy(month: string): { systemId: string; energyWh: number }[] {
    return energyBySystem(this.db, `${month}-01`, `${month}-31`).map((row) => ({
      systemId: row.system_id,
      energyWh: row.energy_wh,
    }));
  }

  /**
   * Each system's energy over the plant-local dates [fromDate, toDate] and the hours it produced
   * among its location's daylight hours.
   */
  periodProduction(
    fromDate: string,
    toDate: string,
    daylight: [string, number][],
  ): { systemId: string; energyWh: number; producingHours: number }[] {
    const hours = new Map(producingHoursBySystem(this.db, daylight).map((r) => [r.system_id, r.hours]));
    const energy = new Map(energyBySystem(this.db, fromDate, toDate).map((r) => [r.system_id, r.energy_wh]));
    return [...new Set([...hours.keys(), ...energy.keys()])].map((systemId) => ({
      systemId,
      energyWh: energy.get(systemId) ?? 0,
      producingHours: hours.get(systemId) ?? 0,
    }));
  }

  /** Removes raw points past their retention, at most the budget's rows, from a cursor. */
  prune(budget: RetentionBudget, cursor: RetentionRun["cursor"]): RetentionRun {
    return pruneReadings(this.db, budget, cursor);
  }

  /**
   * Folds hourly rollups older than 13 months at `now` into their days, at most `maxHours`, from
   * the system after `afterSys`; answers the hours folded and where the next step goes on (null
   * when every system is done).
   */
  foldOldHours(now: number, maxHours: number, afterSys: number) {
    return foldOldHours(this.db, now, maxHours, afterSys);
  }
}
