import { sql } from "drizzle-orm";
import type {
  fleetInverters,
  fleetLossesDue,
  fleetSystemLosses,
  fleetSystems,
} from "../../../schema/fleet-tables";
import type { SqlRow } from "../../../schema/sql-row";
import type { InverterReadings, ReadingPoint, SystemDayLosses } from "../../domain/losses/types";
import type { FleetDb } from "../db";
import { fromStoredState } from "../state";
import { inverterPointsBetween, systemPointsBetween } from "./points";
import { dailyEnergyOn } from "./rollups";

/*
 * The loss accounts' reads and writes in the fleet store (worker/fleet/losses.ts runs them).
 * Dates are plant-local YYYY-MM-DD in each system's zone.
 */

/** A zone's window of finished days: from `from` to `to` (yesterday there), both included. */
export interface ZoneWindow {
  zone: string;
  from: string;
  to: string;
  /** Every date of the window, oldest first. */
  dates: string[];
}

/**
 * Queues every finished day in each zone's window of every system of that zone that has no
 * account yet, from the system's first stored day on (a plant is not accounted before it was
 * connected), for the systems with keys in [fromSys, toSys]; a silent day is queued too, and is
 * then unmeasured. Answers the days queued.
 */
export function queueFinishedDays(
  db: FleetDb,
  windows: ZoneWindow[],
  systems: { fromSys: number; toSys: number },
): number {
  const days = windows.flatMap((w) => w.dates.map((date) => ({ zone: w.zone, date })));
  if (days.length === 0) return 0;
  const rows = db.all(sql`
    INSERT OR IGNORE INTO losses_due (sys, date)
    SELECT s.sys, d.value ->> 'date'
    FROM systems s
    JOIN json_each(${JSON.stringify(days)}) AS d ON d.value ->> 'zone' = s.timezone
    WHERE s.sys BETWEEN ${systems.fromSys} AND ${systems.toSys} AND s.capacity_w > 0 AND s.latitude IS NOT NULL
      AND d.value ->> 'date' >= (SELECT min(date) FROM system_daily WHERE sys = s.sys)
      AND NOT EXISTS (SELECT 1 FROM system_losses l WHERE l.sys = s.sys AND l.date = d.value ->> 'date')
    RETURNING sys`);
  return rows.length;
}

/** The highest system key held (0 with none): where queueing by ranges of keys ends. */
export function lastSystemKey(db: FleetDb): number {
  return db.get<{ n: number }>(sql`SELECT coalesce(max(sys), 0) AS n FROM systems`)?.n ?? 0;
}

/** Queues one system's listed days (a day history filled, days a moved model changes). */
export function queueSystemDays(db: FleetDb, sys: number, dates: string[]): void {
  if (dates.length === 0) return;
  db.run(sql`
    INSERT OR IGNORE INTO losses_due (sys, date)
    SELECT ${sys}, value FROM json_each(${JSON.stringify(dates)})`);
}

/** Queues a day of a system named by its D1 id. */
export function queueDayOf(db: FleetDb, systemId: string, date: string): void {
  db.run(sql`
    INSERT OR IGNORE INTO losses_due (sys, date) SELECT sys, ${date} FROM systems WHERE system_id = ${systemId}`);
}

/** Drops queued days older than `before` (their points are gone) and of systems no longer in the directory. */
export function dropStaleDue(db: FleetDb, before: string): void {
  db.run(sql`
    DELETE FROM losses_due WHERE date < ${before} OR sys NOT IN (SELECT sys FROM systems)`);
}

/** The next queued system-days after system `afterSys`: whole systems, oldest day first, about `limit` days in all. */
export function nextDue(db: FleetDb, afterSys: number, limit: number): Map<number, string[]> {
  const rows = db.all<Pick<SqlRow<typeof fleetLossesDue>, "sys" | "date">>(sql`
    SELECT sys, date FROM losses_due
    WHERE sys IN (SELECT DISTINCT sys FROM losses_due WHERE sys > ${afterSys} ORDER BY sys
      LIMIT ${Math.max(1, Math.ceil(limit / 31))})
    ORDER BY sys, date`);
  const bySys = new Map<number, string[]>();
  for (const row of rows) {
    const dates = bySys.get(row.sys) ?? [];
    dates.push(row.date);
    bySys.set(row.sys, dates);
  }
  return bySys;
}

export function countDue(db: FleetDb): number {
  return db.get<{ n: number }>(sql`SELECT count(*) AS n FROM losses_due`)?.n ?? 0;
}

export function deleteDue(db: FleetDb, sys: number, dates: string[]): void {
  db.run(sql`
    DELETE FROM losses_due WHERE sys = ${sys} AND date IN (SELECT value FROM json_each(${JSON.stringify(dates)}))`);
}

export type LossSystemRow = Pick<
  SqlRow<typeof fleetSystems>,
  "sys" | "system_id" | "site_id" | "capacity_w" | "latitude" | "longitude" | "timezone" | "location_key"
> & { model_calibration: number | null; model_days: number | null; inferred_ac_limit_w: number | null };

/** The systems to account, with what their days taught the model so far. */
export function lossSystems(db: FleetDb, sysList: number[]): LossSystemRow[] {
  return db.all<LossSystemRow>(sql`
    SELECT s.sys, s.system_id, s.site_id, s.capacity_w, s.latitude, s.longitude, s.timezone, s.location_key,
      m.calibration AS model_calibration, m.calibration_days AS model_days, m.inferred_ac_limit_w
    FROM systems s LEFT JOIN system_models m ON m.sys = s.sys
    WHERE s.sys IN (SELECT value FROM json_each(${JSON.stringify(sysList)}))`);
}

/** A system's inverters, in a stable order. */
export function inverterKeys(db: FleetDb, sys: number) {
  return db.all<Pick<SqlRow<typeof fleetInverters>, "inv" | "inverter_id">>(sql`
    SELECT inv, inverter_id FROM inverters WHERE sys = ${sys} ORDER BY inv`);
}

/** A system's points in [fromMs, toMs), oldest first (one range of each day's key). */
export function systemPoints(db: FleetDb, sys: number, fromMs: number, toMs: number): ReadingPoint[] {
  return systemPointsBetween(db, sys, Math.floor(fromMs / 1000), Math.ceil(toMs / 1000) - 1).map((r) => ({
    at: r.t * 1000,
    powerW: r.power_w,
    state: fromStoredState(r.state),
  }));
}

/**
 * Each inverter's points in [fromMs, toMs) (packed in its system's points); inverters without a
 * power value are left out (a vendor that reports inverters without their own power tells
 * nothing of them).
 */
export function inverterPoints(
  db: FleetDb,
  inverters: { inv: number; inverter_id: string }[],
  fromMs: number,
  toMs: number,
): InverterReadings[] {
  if (inverters.length === 0) return [];
  const systems = db
    .all<Pick<SqlRow<typeof fleetInverters>, "sys">>(sql`
      SELECT DISTINCT sys FROM inverters WHERE inv IN (SELECT value FROM json_each(${JSON.stringify(inverters.map((i) => i.inv))}))`)
    .map((r) => r.sys);
  const points = inverterPointsBetween(db, systems, Math.floor(fromMs / 1000), Math.ceil(toMs / 1000) - 1);
  const found: InverterReadings[] = [];
  for (const inverter of inverters) {
    const own = points
      .filter((p) => p.inv === inverter.inv)
      .map((p) => ({ at: p.t * 1000, powerW: p.power_w, state: fromStoredState(p.state) }));
    if (own.some((p) => p.powerW !== null)) found.push({ inverterId: inverter.inverter_id, points: own });
  }
  return found;
}

/** A system's daily energy (the vendor's counter) on the listed days; a day of its open hour takes that hour's points too. */
export function dailyEnergy(db: FleetDb, sys: number, dates: string[]): Map<string, number> {
  return dailyEnergyOn(db, sys, dates);
}

/** Stores a system-day's account and its inverters' parts, replacing an earlier one. */
export function writeDay(
  db: FleetDb,
  sys: number,
  day: SystemDayLosses,
  model: { calibration: number; acLimitW: number | null },
  inverterKeysById: Map<string, number>,
  now: number,
): void {
  db.run(sql`
    INSERT INTO system_losses (sys, date, expected_wh, actual_wh, weather_wh, downtime_wh, partial_outage_wh,
      clipping_wh, soiling_wh, underperformance_wh, unmeasured_wh, healthy_reference_wh, healthy_actual_wh,
      soilable_wh, peak_power_w, plateau_steps, precipitation_mm, calibration, ac_limit_w, computed_at)
    VALUES (${sys}, ${day.date}, ${day.expectedWh}, ${day.actualWh}, ${day.weatherWh}, ${day.losses.downtime},
      ${day.losses.partialOutage}, ${day.losses.clipping}, ${day.losses.soiling}, ${day.losses.underperformance},
      ${day.losses.unmeasured}, ${day.healthyReferenceWh}, ${day.healthyActualWh}, ${day.soilableWh},
      ${day.peakPowerW}, ${day.plateauSteps}, ${day.precipitationMm}, ${model.calibration},
      ${model.acLimitW === null ? null : Math.round(model.acLimitW)}, ${now})
    ON CONFLICT (sys, date) DO UPDATE SET expected_wh = excluded.expected_wh, actual_wh = excluded.actual_wh,
      weather_wh = excluded.weather_wh, downtime_wh = excluded.downtime_wh,
      partial_outage_wh = excluded.partial_outage_wh, clipping_wh = excluded.clipping_wh,
      soiling_wh = excluded.soiling_wh, underperformance_wh = excluded.underperformance_wh,
      unmeasured_wh = excluded.unmeasured_wh, healthy_reference_wh = excluded.healthy_reference_wh,
      healthy_actual_wh = excluded.healthy_actual_wh, soilable_wh = excluded.soilable_wh,
      peak_power_w = excluded.peak_power_w, plateau_steps = excluded.plateau_steps,
      precipitation_mm = excluded.precipitation_mm, calibration = excluded.calibration,
      ac_limit_w = excluded.ac_limit_w, computed_at = excluded.computed_at`);
  const inverters = day.inverters.flatMap((inverter) => {
    const inv = inverterKeysById.get(inverter.inverterId);
    return inv === undefined ? [] : [{ inv, ...inverter }];
  });
  if (inverters.length === 0) return;
  db.run(sql`
    INSERT INTO inverter_losses (inv, date, expected_wh, actual_wh, partial_outage_wh, down_steps)
    SELECT j.value ->> 'inv', ${day.date}, j.value ->> 'expectedWh', j.value ->> 'actualWh',
      j.value ->> 'partialOutageWh', j.value ->> 'downSteps'
    FROM json_each(${JSON.stringify(inverters)}) AS j WHERE true
    ON CONFLICT (inv, date) DO UPDATE SET expected_wh = excluded.expected_wh, actual_wh = excluded.actual_wh,
      partial_outage_wh = excluded.partial_outage_wh, down_steps = excluded.down_steps`);
}

type StoredDayRow = Pick<
  SqlRow<typeof fleetSystemLosses>,
  | "date"
  | "healthy_reference_wh"
  | "healthy_actual_wh"
  | "soilable_wh"
  | "peak_power_w"
  | "plateau_steps"
  | "precipitation_mm"
  | "downtime_wh"
  | "partial_outage_wh"
  | "clipping_wh"
  | "soiling_wh"
  | "underperformance_wh"
  | "unmeasured_wh"
>;

/** A system's accounted days from `fromDate` on, oldest first: what calibration, soiling and the AC limit learn from. */
export function accountedDays(db: FleetDb, sys: number, fromDate: string) {
  return db
    .all<StoredDayRow>(sql`
      SELECT date, healthy_reference_wh, healthy_actual_wh, soilable_wh, peak_power_w, plateau_steps,
        precipitation_mm, downtime_wh, partial_outage_wh, clipping_wh, soiling_wh, underperformance_wh,
        unmeasured_wh
      FROM system_losses WHERE sys = ${sys} AND date >= ${fromDate} ORDER BY date`)
    .map((r) => ({
      date: r.date,
      healthyReferenceWh: r.healthy_reference_wh,
      healthyActualWh: r.healthy_actual_wh,
      soilableWh: r.soilable_wh,
      peakPowerW: r.peak_power_w,
      plateauSteps: r.plateau_steps,
      precipitationMm: r.precipitation_mm,
      losses: {
        downtime: r.downtime_wh,
        partialOutage: r.partial_outage_wh,
        clipping: r.clipping_wh,
        soiling: r.soiling_wh,
        underperformance: r.underperformance_wh,
        unmeasured: r.unmeasured_wh,
      },
    }));
}

/** Moves soiling out of (or back into) underperformance on the days whose share changed. */
export function writeSoiling(
  db: FleetDb,
  sys: number,
  days: { date: string; soilingWh: number; underperformanceWh: number }[],
) {
  if (days.length === 0) return;
  db.run(sql`
    UPDATE system_losses SET soiling_wh = j.value ->> 'soilingWh', underperformance_wh = j.value ->> 'underperformanceWh'
    FROM json_each(${JSON.stringify(days)}) AS j
    WHERE system_losses.sys = ${sys} AND system_losses.date = j.value ->> 'date'`);
}

export function writeModel(
  db: FleetDb,
  sys: number,
  model: { calibration: number; calibrationDays: number; inferredAcLimitW: number | null },
  now: number,
): void {
  db.run(sql`
    INSERT INTO system_models (sys, calibration, calibration_days, inferred_ac_limit_w, updated_at)
    VALUES (${sys}, ${model.calibration}, ${model.calibrationDays}, ${model.inferredAcLimitW}, ${now})
    ON CONFLICT (sys) DO UPDATE SET calibration = excluded.calibration,
      calibration_days = excluded.calibration_days, inferred_ac_limit_w = excluded.inferred_ac_limit_w,
      updated_at = excluded.updated_at`);
}

/** Removes accounts of days before `before`, bounded; answers the rows removed. */
export function pruneLosses(db: FleetDb, before: string, maxRows: number): number {
  const systems = db.all(sql`
    DELETE FROM system_losses WHERE rowid IN (SELECT rowid FROM system_losses WHERE date < ${before} LIMIT ${maxRows})
    RETURNING sys`).length;
  const inverters = db.all(sql`
    DELETE FROM inverter_losses WHERE rowid IN (SELECT rowid FROM inverter_losses WHERE date < ${before} LIMIT ${maxRows})
    RETURNING inv`).length;
  return systems + inverters;
}

// -- reads for the API -----------------------------------------------------------------------------

export type LossTotalsRow = Pick<
  SqlRow<typeof fleetSystemLosses>,
  | "expected_wh"
  | "actual_wh"
  | "weather_wh"
  | "downtime_wh"
  | "partial_outage_wh"
  | "clipping_wh"
  | "soiling_wh"
  | "underperformance_wh"
  | "unmeasured_wh"
>;

const SUMS =
  sql.raw(`sum(l.expected_wh) AS expected_wh, sum(l.actual_wh) AS actual_wh, sum(l.weather_wh) AS weather_wh,
  sum(l.downtime_wh) AS downtime_wh, sum(l.partial_outage_wh) AS partial_outage_wh,
  sum(l.clipping_wh) AS clipping_wh, sum(l.soiling_wh) AS soiling_wh,
  sum(l.underperformance_wh) AS underperformance_wh, sum(l.unmeasured_wh) AS unmeasured_wh`);

/**
 * The listed systems' accounts (null: every system's) from `from` to `to` (each system's own
 * dates), summed per site and date.
 */
export function lossesBySiteAndDate(db: FleetDb, systemIds: string[] | null, from: string, to: string) {
  const listed =
    systemIds === null
      ? sql``
      : sql`AND s.system_id IN (SELECT value FROM json_each(${JSON.stringify(systemIds)}))`;
  return db.all<LossTotalsRow & { site_id: string | null; date: string; systems: number }>(sql`
    SELECT s.site_id, l.date, count(*) AS systems, ${SUMS}
    FROM system_losses l JOIN systems s ON s.sys = l.sys
    WHERE l.date >= ${from} AND l.date <= ${to} ${listed}
    GROUP BY s.site_id, l.date ORDER BY l.date`);
}

/**
 * Every site's accounts over each zone's window, summed per site and price period: `cuts` are the
 * dates a price changes on, so each period has one price per site. Systems on no site are left out.
 */
export function lossesBySiteAndPeriod(db: FleetDb, windows: ZoneWindow[], cuts: string[]) {
  const periodOf =
    cuts.length === 0
      ? sql`0`
      : sql.raw(
          `(CASE ${cuts.map((cut, i) => `WHEN l.date < '${cut.replace(/'/g, "")}' THEN ${i}`).join(" ")} ELSE ${cuts.length} END)`,
        );
  return db.all<
    LossTotalsRow & { site_id: string; site_name: string | null; period: number; first_date: string }
  >(sql`
    SELECT s.site_id, max(s.site_name) AS site_name, ${periodOf} AS period, min(l.date) AS first_date, ${SUMS}
    FROM system_losses l
    JOIN systems s ON s.sys = l.sys
    JOIN json_each(${JSON.stringify(windows.map(({ zone, from, to }) => ({ zone, from, to })))}) AS w
      ON w.value ->> 'zone' = s.timezone
    WHERE s.site_id IS NOT NULL AND l.date >= w.value ->> 'from' AND l.date <= w.value ->> 'to'
    GROUP BY s.site_id, period`);
}

/** Rows of the loss tables (the store's size report). */
export function lossRowCounts(db: FleetDb) {
  return db.get<{ systems: number; inverters: number; due: number }>(sql`
    SELECT (SELECT count(*) FROM system_losses) AS systems, (SELECT count(*) FROM inverter_losses) AS inverters,
      (SELECT count(*) FROM losses_due) AS due`);
}

/** The zones the systems' days are counted in. */
export function systemZones(db: FleetDb): string[] {
  return db.all<{ timezone: string }>(sql`SELECT DISTINCT timezone FROM systems`).map((r) => r.timezone);
}
