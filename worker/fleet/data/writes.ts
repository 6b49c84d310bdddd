import { sql } from "drizzle-orm";
import type { fleetSystemReadings, fleetSystems } from "../../../schema/fleet-tables";
import type { SqlRow } from "../../../schema/sql-row";
import { localDayOf } from "../../domain/energy/local-day";
import type { FleetDb } from "../db";
import { toStoredState } from "../state";
import type { SystemPoint } from "../types";

const HOUR_S = 3600;
const round = (value: number | null) => (value === null ? null : Math.round(value));

/**
 * Stores a page's points: every point as a reading (a time already stored is kept), the newest
 * as the live values when it is newer than what is stored, and the rollups of exactly the
 * system-hours and system-days of the points that were new. A plant offline for weeks repeats
 * its last point in every sync; that point is stored already, so it rolls nothing up again.
 * Runs inside the caller's transaction.
 */
export function storePoints(db: FleetDb, points: SystemPoint[]) {
  if (points.length === 0) return { hours: 0, days: 0 };
  const inserted = insertReadings(db, points);

  const inverterReadings = points.flatMap((p) =>
    p.inverters.map((inv) => ({
      inverterId: inv.inverterId,
      t: Math.floor(inv.time / 1000),
      powerW: round(inv.powerW),
      energyTodayWh: round(inv.energyTodayWh),
      temperatureDc: inv.temperatureC === null ? null : Math.round(inv.temperatureC * 10),
      state: toStoredState(inv.state),
    })),
  );
  if (inverterReadings.length > 0) {
    db.run(sql`
      INSERT INTO inverter_readings (inv, t, power_w, energy_today_wh, temperature_dc, state)
      SELECT i.inv, j.value ->> 't', j.value ->> 'powerW', j.value ->> 'energyTodayWh', j.value ->> 'temperatureDc',
        j.value ->> 'state'
      FROM json_each(${JSON.stringify(inverterReadings)}) AS j CROSS JOIN inverters i ON i.inverter_id = j.value ->> 'inverterId'
      WHERE true
      ON CONFLICT (inv, t) DO NOTHING`);
  }
  storeLive(db, points);
  return rollUp(db, inserted);
}

/** Inserts the points as readings (a time already stored is kept); answers the points that were new. */
function insertReadings(db: FleetDb, points: SystemPoint[]): SystemPoint[] {
  const readings = points.map((p) => ({
    systemId: p.systemId,
    t: Math.floor(p.time / 1000),
    powerW: round(p.powerW),
    energyTodayWh: round(p.energyTodayWh),
    state: toStoredState(p.state),
  }));
  const rows = db.all<
    Pick<SqlRow<typeof fleetSystems>, "system_id"> & Pick<SqlRow<typeof fleetSystemReadings>, "t">
  >(sql`
    INSERT INTO system_readings (sys, t, power_w, energy_today_wh, state)
    SELECT s.sys, j.value ->> 't', j.value ->> 'powerW', j.value ->> 'energyTodayWh', j.value ->> 'state'
    FROM json_each(${JSON.stringify(readings)}) AS j CROSS JOIN systems s ON s.system_id = j.value ->> 'systemId'
    WHERE true
    ON CONFLICT (sys, t) DO NOTHING
    RETURNING (SELECT system_id FROM systems WHERE systems.sys = system_readings.sys) AS system_id, t`);
  const isNew = new Set(rows.map((r) => `${r.system_id}|${r.t}`));
  return points.filter((p) => isNew.has(`${p.systemId}|${Math.floor(p.time / 1000)}`));
}

/** One system's past points for one plant-local day, as a vendor's history answers them. */
export interface HistoryDayInput {
  systemId: string;
  /** Plant-local YYYY-MM-DD the points belong to. */
  date: string;
  points: { time: number; powerW: number | null; energyTodayWh: number | null }[];
  /** The vendor's own total for the day, when it gives one. */
  dailyEnergyWh: number | null;
  fetchedAt: number;
  /** Whether the day had ended when it was fetched: only a whole day counts as fetched. */
  dayOver: boolean;
}

/**
 * Stores one day of a system's history: new points as readings (times already stored keep their
 * values, so storing the same day twice writes nothing), the rollups of only the hours and day
 * those new points fall in, the vendor's day total where it is higher than what is counted, and
 * the day as fetched once it is over. Live values are left to the live sync. Runs inside the caller's transaction.
 */
export function storeHistoryDay(db: FleetDb, day: HistoryDayInput) {
  const points: SystemPoint[] = day.points.map((p) => ({
    systemId: day.systemId,
    time: p.time,
    // History carries no state: a plant producing was online, one at zero was not.
    state: (p.powerW ?? 0) > 0 ? "online" : "offline",
    powerW: p.powerW,
    energyTodayWh: p.energyTodayWh,
    energyTotalWh: null,
    inverters: [],
  }));
  const inserted = points.length > 0 ? insertReadings(db, points) : [];
  const rolled = inserted.length > 0 ? rollUp(db, inserted) : { hours: 0, days: 0 };
  let dayTotalChanged = 0;
  if (day.dailyEnergyWh !== null) {
    const changed = db.all(sql`
      INSERT INTO system_daily (sys, date, energy_wh, peak_power_w)
      SELECT sys, ${day.date}, ${Math.round(day.dailyEnergyWh)}, NULL FROM systems WHERE system_id = ${day.systemId}
      ON CONFLICT (sys, date) DO UPDATE SET energy_wh = excluded.energy_wh WHERE excluded.energy_wh > energy_wh
      RETURNING sys`);
    dayTotalChanged = changed.length;
  }
  if (day.dayOver)
    db.run(sql`
    INSERT INTO history_days (sys, date, points, fetched_at)
    SELECT sys, ${day.date}, ${day.points.length}, ${day.fetchedAt} FROM systems WHERE system_id = ${day.systemId}
    ON CONFLICT (sys, date) DO UPDATE SET points = excluded.points, fetched_at = excluded.fetched_at
    WHERE excluded.points <> points`);
  return {
    pointsStored: inserted.length,
    hours: rolled.hours,
    days: Math.max(rolled.days, dayTotalChanged),
  };
}

/** The newest point of each system (and inverter) becomes its live values unless something newer is stored. */
function storeLive(db: FleetDb, points: SystemPoint[]) {
  const newest = new Map<string, SystemPoint>();
  for (const p of points) {
    const current = newest.get(p.systemId);
    if (!current || p.time >= current.time) newest.set(p.systemId, p);
  }
  const systems = [...newest.values()].map((p) => ({
    systemId: p.systemId,
    time: p.time,
    state: toStoredState(p.state),
    powerW: round(p.powerW),
    energyTodayWh: round(p.energyTodayWh),
    energyTotalWh: round(p.energyTotalWh),
  }));
  db.run(sql`
    UPDATE systems SET state = j.value ->> 'state', power_w = j.value ->> 'powerW',
      energy_today_wh = j.value ->> 'energyTodayWh',
      energy_total_wh = coalesce(j.value ->> 'energyTotalWh', systems.energy_total_wh),
      data_time = j.value ->> 'time'
    FROM json_each(${JSON.stringify(systems)}) AS j
    WHERE systems.system_id = j.value ->> 'systemId'
      AND (systems.data_time IS NULL OR systems.data_time <= j.value ->> 'time')`);
  const inverters = [...newest.values()].flatMap((p) =>
    p.inverters.map((inv) => ({
      inverterId: inv.inverterId,
      time: inv.time,
      state: toStoredState(inv.state),
      powerW: round(inv.powerW),
      energyTodayWh: round(inv.energyTodayWh),
      temperatureC: inv.temperatureC,
    })),
  );
  if (inverters.length === 0) return;
  db.run(sql`
    UPDATE inverters SET state = j.value ->> 'state', power_w = j.value ->> 'powerW',
      energy_today_wh = j.value ->> 'energyTodayWh', temperature_c = j.value ->> 'temperatureC',
      data_time = j.value ->> 'time'
    FROM json_each(${JSON.stringify(inverters)}) AS j
    WHERE inverters.inverter_id = j.value ->> 'inverterId'
      AND (inverters.data_time IS NULL OR inverters.data_time <= j.value ->> 'time')`);
}

/**
 * Rollups of the hours and days the points touched, never of the whole history: each touched UTC
 * hour is recomputed from its raw points (idempotent), and each plant-local day keeps the highest
 * energy-today counter seen (vendors reset it at local midnight, so the maximum is the day's energy).
 */
function rollUp(db: FleetDb, points: SystemPoint[]) {
  const hours = new Map<string, { systemId: string; hour: number }>();
  for (const p of points) {
    const hour = Math.floor(p.time / 1000 / HOUR_S);
    hours.set(`${p.systemId}|${hour}`, { systemId: p.systemId, hour });
  }
  db.run(sql`
    INSERT INTO system_hourly (sys, hour, avg_power_w, samples)
    SELECT r.sys, k.hour, CAST(round(avg(r.power_w)) AS INTEGER), count(*)
    FROM (SELECT s.sys, j.value ->> 'hour' AS hour
          FROM json_each(${JSON.stringify([...hours.values()])}) AS j
          JOIN systems s ON s.system_id = j.value ->> 'systemId') AS k
    CROSS JOIN system_readings r ON r.sys = k.sys AND r.t >= k.hour * ${HOUR_S} AND r.t < (k.hour + 1) * ${HOUR_S}
    WHERE true
    GROUP BY r.sys, k.hour
    ON CONFLICT (sys, hour) DO UPDATE SET avg_power_w = excluded.avg_power_w, samples = excluded.samples`);

  const zones = new Map(
    db
      .all<Pick<SqlRow<typeof fleetSystems>, "system_id" | "timezone">>(
        sql`SELECT system_id, timezone FROM systems WHERE system_id IN (SELECT value FROM json_each(${JSON.stringify(
          [...new Set(points.map((p) => p.systemId))],
        )}))`,
      )
      .map((r) => [r.system_id, r.timezone]),
  );
  const days = new Map<string, { systemId: string; date: string; energyWh: number; powerW: number }>();
  for (const p of points) {
    const zone = zones.get(p.systemId);
    if (p.energyTodayWh === null || zone === undefined) continue;
    const date = localDayOf(p.time, zone).date;
    const key = `${p.systemId}|${date}`;
    const current = days.get(key);
    days.set(key, {
      systemId: p.systemId,
      date,
      energyWh: Math.round(Math.max(current?.energyWh ?? 0, p.energyTodayWh)),
      powerW: Math.round(Math.max(current?.powerW ?? 0, p.powerW ?? 0)),
    });
  }
  if (days.size > 0) {
    db.run(sql`
      INSERT INTO system_daily (sys, date, energy_wh, peak_power_w)
      SELECT s.sys, j.value ->> 'date', j.value ->> 'energyWh', j.value ->> 'powerW'
      FROM json_each(${JSON.stringify([...days.values()])}) AS j CROSS JOIN systems s ON s.system_id = j.value ->> 'systemId'
      WHERE true
      ON CONFLICT (sys, date) DO UPDATE SET energy_wh = max(energy_wh, excluded.energy_wh),
        peak_power_w = max(coalesce(peak_power_w, 0), coalesce(excluded.peak_power_w, 0))`);
  }
  return { hours: hours.size, days: days.size };
}
