import { sql } from "drizzle-orm";
import type { fleetInverters, fleetSystems } from "../../../schema/fleet-tables";
import type { SqlRow } from "../../../schema/sql-row";
import type { FleetDb } from "../db";
import { toStoredState } from "../state";
import type { SystemPoint } from "../types";
import {
  HOUR_S,
  insertPoints,
  keptInverterLive,
  type NewestPoint,
  newestPoints,
  type PackedInverter,
  type PointRow,
  packInverters,
  storedPoints,
  unpackInverters,
  updatePoints,
} from "./points";
import { aggregateHours, type HourKey, storedHours, storeHourRollups } from "./rollups";

const round = (value: number | null) => (value === null ? null : Math.round(value));

type Inverters = { entry: PackedInverter; at: number }[];

/** A point on its way to the store: its row with the inverters unpacked. */
interface Incoming {
  sys: number;
  t: number;
  ms: number | null;
  powerW: number | null;
  energyTodayWh: number | null;
  state: number;
  inverters: Inverters;
}

/** A stored (or about to be stored) point and what the page did to it. */
interface Held extends Incoming {
  table: string | null;
  isNew: boolean;
  changed: boolean;
}

export interface StorePointsOptions {
  /**
   * Live points (a sync's) may move a system's newest point forward: a point of the newest time
   * already stored takes the vendor's newer state and values, and the newest point carries every
   * inverter's latest entry. A vendor's history only adds points that are not stored.
   */
  live?: boolean;
  /** The clock that says which hours have closed (epoch ms). */
  now?: number;
}

/**
 * Stores a page's points: each new point in its day's table with its inverters packed (an
 * inverter's own time kept beside it), a point already stored kept as it is — unless it is the
 * system's newest and the vendor's values for it moved, then they are its live values — and the
 * newest point of each system carrying every inverter's latest entry (an older page never moves
 * it back). Then the rollups of the hours that have closed: the hours of the new points that are
 * over, and a system's open hour once a later point has come. A system's open hour is left for
 * reads to compute, so a live point writes one row. Runs inside the caller's transaction.
 */
export function storePoints(db: FleetDb, points: SystemPoint[], options: StorePointsOptions = {}) {
  const live = options.live ?? true;
  const now = options.now ?? Date.now();
  if (points.length === 0) return { hours: 0, days: 0, points: 0 };
  const systems = systemKeys(
    db,
    points.map((p) => p.systemId),
  );
  const inverterKeys = live
    ? inverterKeysOf(
        db,
        points.flatMap((p) => p.inverters.map((inv) => inv.inverterId)),
      )
    : new Map<string, number>();
  const incoming: Incoming[] = [];
  for (const p of points) {
    const system = systems.get(p.systemId);
    if (!system) continue;
    const t = Math.floor(p.time / 1000);
    const inverters: Inverters = [];
    for (const inv of live ? p.inverters : []) {
      const key = inverterKeys.get(inv.inverterId);
      if (key === undefined || inverters.some((i) => i.entry[0] === key)) continue;
      inverters.push({
        at: Math.floor(inv.time / 1000),
        entry: [
          key,
          round(inv.powerW),
          round(inv.energyTodayWh),
          inv.temperatureC === null ? null : Math.round(inv.temperatureC * 10),
          toStoredState(inv.state),
        ],
      });
    }
    incoming.push({
      sys: system.sys,
      t,
      ms: p.time - t * 1000 || null,
      powerW: round(p.powerW),
      energyTodayWh: round(p.energyTodayWh),
      state: toStoredState(p.state),
      inverters,
    });
  }
  if (incoming.length === 0) return { hours: 0, days: 0, points: 0 };
  const sysList = [...new Set(incoming.map((p) => p.sys))];
  const newest = newestPoints(db, sysList);
  const stored = new Map(
    storedPoints(db, uniqueKeys(incoming.map((p) => ({ sys: p.sys, t: p.t })))).map((row) => [
      `${row.sys}|${row.t}`,
      row,
    ]),
  );
  // Each system's newest time once the page is stored.
  const newestAfter = new Map<number, number>();
  for (const sys of sysList) newestAfter.set(sys, newest.get(sys)?.t ?? Number.NEGATIVE_INFINITY);
  for (const p of incoming) newestAfter.set(p.sys, Math.max(newestAfter.get(p.sys) ?? p.t, p.t));

  // In page order: a time's first point is stored, a later one of the same time comes after it.
  const held = new Map<string, Held>();
  for (const p of incoming) {
    const key = `${p.sys}|${p.t}`;
    let point = held.get(key);
    if (!point) {
      const row = stored.get(key);
      point = row
        ? { ...fromRow(row), table: row.table, isNew: false, changed: false }
        : { ...p, table: null, isNew: true, changed: false };
      held.set(key, point);
      if (!row) continue;
    }
    if (!live) continue;
    if (p.t === newestAfter.get(p.sys) && !sameValues(point, p)) {
      point.state = p.state;
      point.powerW = p.powerW;
      point.energyTodayWh = p.energyTodayWh;
      point.ms = p.ms;
      point.changed = true;
    }
    // The newest point takes a repeated time's later values (as live values do); an older one keeps its own.
    const merged =
      p.t === newestAfter.get(p.sys)
        ? latestPerInverter(p.inverters, point.inverters)
        : latestPerInverter(point.inverters, p.inverters);
    if (!sameInverters(point.inverters, merged)) {
      point.inverters = merged;
      point.changed = true;
    }
  }
  // The newest point of each system carries every inverter's latest entry (its live values).
  if (live) {
    const kept = keptEntries(db, sysList);
    for (const point of held.values()) {
      if (point.t !== newestAfter.get(point.sys)) continue;
      const carried = [
        ...(kept.get(point.sys) ?? []),
        ...(olderNewest(newest.get(point.sys), point.t)?.inverters ?? []),
      ];
      const merged = latestPerInverter(point.inverters, carried);
      if (!sameInverters(point.inverters, merged)) {
        point.inverters = merged;
        if (!point.isNew) point.changed = true;
      }
    }
  }
  const written = [...held.values()].filter((p) => p.isNew || p.changed);
  insertPoints(db, written.filter((p) => p.isNew).map(toRow));
  updatePoints(
    db,
    written.filter((p) => !p.isNew).map((p) => ({ ...toRow(p), table: p.table ?? "" })),
  );
  const rolled = rollUpClosed(db, written, newest, newestAfter, systemZones(systems), now);
  return { ...rolled, points: written.filter((p) => p.isNew).length };
}

/**
 * Rolls up the hours the written points closed: their own hours once over (ended by the clock, or
 * before the system's newest hour), an hour of theirs that already has a rollup (rolled again to
 * take them), and each system's previous open hour when its newest point moved to a later hour.
 */
function rollUpClosed(
  db: FleetDb,
  written: Held[],
  newest: Map<number, NewestPoint>,
  newestAfter: Map<number, number>,
  zones: Map<number, string>,
  now: number,
) {
  const hourOf = (t: number) => Math.floor(t / HOUR_S);
  const roll = new Map<string, HourKey>();
  const ifStored = new Map<string, HourKey>();
  const ifMissing = new Map<string, HourKey>();
  for (const point of written) {
    const hour = hourOf(point.t);
    const key = { sys: point.sys, hour, zone: zones.get(point.sys) ?? "UTC" };
    const closed = (hour + 1) * HOUR_S * 1000 <= now || hour < hourOf(newestAfter.get(point.sys) ?? point.t);
    (closed ? roll : ifStored).set(`${point.sys}|${hour}`, key);
  }
  for (const [sys, point] of newest) {
    const before = hourOf(point.t);
    const after = hourOf(newestAfter.get(sys) ?? point.t);
    const id = `${sys}|${before}`;
    if (before < after && !roll.has(id))
      ifMissing.set(id, { sys, hour: before, zone: zones.get(sys) ?? "UTC" });
  }
  for (const id of ifStored.keys()) ifMissing.delete(id);
  const present = storedHours(db, [...ifStored.values(), ...ifMissing.values()]);
  for (const [id, key] of ifStored) if (present.has(id)) roll.set(id, key);
  for (const [id, key] of ifMissing) if (!present.has(id)) roll.set(id, key);
  const hours = aggregateHours(db, [...roll.values()]);
  storeHourRollups(db, hours);
  const days = new Set(hours.flatMap((h) => h.days.map((d) => `${h.sys}|${d.date}`)));
  return { hours: hours.length, days: days.size };
}

/** The stored newest point when it is older than `t` (what a newer point carries entries from). */
const olderNewest = (point: NewestPoint | undefined, t: number) =>
  point !== undefined && point.t < t ? point : undefined;

/** Per inverter, the entry of the latest time among both lists (the first list's on a tie). */
function latestPerInverter(own: Inverters, other: Inverters): Inverters {
  const byInv = new Map<number, Inverters[number]>();
  for (const item of [...own, ...other]) {
    const current = byInv.get(item.entry[0]);
    if (!current || item.at > current.at) byInv.set(item.entry[0], item);
  }
  return [...byInv.values()].sort((a, b) => a.entry[0] - b.entry[0]);
}

function sameInverters(a: Inverters, b: Inverters): boolean {
  if (a.length !== b.length) return false;
  const key = (list: Inverters) =>
    JSON.stringify(
      [...list].sort((x, y) => x.entry[0] - y.entry[0]).map((i) => [i.at, ...i.entry.slice(0, 5)]),
    );
  return key(a) === key(b);
}

const sameValues = (a: Incoming, b: Incoming) =>
  a.state === b.state && a.powerW === b.powerW && a.energyTodayWh === b.energyTodayWh && a.ms === b.ms;

function fromRow(row: PointRow): Incoming {
  return {
    sys: row.sys,
    t: row.t,
    ms: row.ms,
    powerW: row.power_w,
    energyTodayWh: row.energy_today_wh,
    state: row.state,
    inverters: unpackInverters(row.t, row.inverters),
  };
}

const toRow = (p: Incoming): PointRow => ({
  sys: p.sys,
  t: p.t,
  power_w: p.powerW,
  energy_today_wh: p.energyTodayWh,
  state: p.state as PointRow["state"],
  ms: p.ms,
  inverters: packInverters(p.t, p.inverters),
});

function uniqueKeys(keys: { sys: number; t: number }[]) {
  return [...new Map(keys.map((k) => [`${k.sys}|${k.t}`, k])).values()];
}

/** The inverters' live values kept on their rows, as entries (from before the packed points, or kept when a day was dropped). */
function keptEntries(db: FleetDb, sysList: number[]): Map<number, Inverters> {
  const kept = new Map<number, Inverters>();
  for (const row of keptInverterLive(db, sysList)) {
    if (row.data_time === null || row.state === null) continue;
    const list = kept.get(row.sys) ?? [];
    list.push({
      at: Math.floor(row.data_time / 1000),
      entry: [
        row.inv,
        row.power_w,
        row.energy_today_wh,
        row.temperature_c === null ? null : Math.round(row.temperature_c * 10),
        row.state,
      ],
    });
    kept.set(row.sys, list);
  }
  return kept;
}

function systemKeys(db: FleetDb, systemIds: string[]) {
  const rows = db.all<Pick<SqlRow<typeof fleetSystems>, "sys" | "system_id" | "timezone">>(sql`
    SELECT sys, system_id, timezone FROM systems
    WHERE system_id IN (SELECT value FROM json_each(${JSON.stringify([...new Set(systemIds)])}))`);
  return new Map(rows.map((r) => [r.system_id, { sys: r.sys, timezone: r.timezone }]));
}

const systemZones = (systems: Map<string, { sys: number; timezone: string }>) =>
  new Map([...systems.values()].map((s) => [s.sys, s.timezone]));

function inverterKeysOf(db: FleetDb, inverterIds: string[]) {
  if (inverterIds.length === 0) return new Map<string, number>();
  const rows = db.all<Pick<SqlRow<typeof fleetInverters>, "inv" | "inverter_id">>(sql`
    SELECT inv, inverter_id FROM inverters
    WHERE inverter_id IN (SELECT value FROM json_each(${JSON.stringify([...new Set(inverterIds)])}))`);
  return new Map(rows.map((r) => [r.inverter_id, r.inv]));
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
 * Stores one day of a system's history: new points (times already stored keep their values, so
 * storing the same day twice writes nothing), the rollups of the closed hours those new points
 * fall in, the vendor's day total where it is higher than what is counted, and the day as fetched
 * once it is over. Live values are left to the live sync. Runs inside the caller's transaction.
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
  const rolled = storePoints(db, points, { live: false });
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
    pointsStored: rolled.points,
    hours: rolled.hours,
    days: Math.max(rolled.days, dayTotalChanged),
  };
}
