import type { SystemOrientation } from "../../schema/api/orientation";
import { weatherByLocation } from "../data/irradiance";
import { listOrientationInputs } from "../data/system-orientation";
import { localDay } from "../domain/energy/local-day";
import { accountDay } from "../domain/losses/accounting";
import { finishedDays, shiftDate } from "../domain/losses/days";
import { learnSystem, needsRecount, settleSoiling } from "../domain/losses/system-account";
import { effectiveOrientation } from "../domain/solar/orientation";
import type { WeatherHour } from "../domain/solar/plane-of-array";
import { DEFAULT_CALIBRATION, type PvSystem } from "../domain/solar/pv-model";
import type { Db } from "../lib/db";
import { yieldTurn } from "../lib/yield-turn";
import {
  accountedDays,
  countDue,
  dailyEnergy,
  deleteDue,
  dropStaleDue,
  inverterKeys,
  inverterPoints,
  type LossSystemRow,
  lastSystemKey,
  lossSystems,
  nextDue,
  pruneLosses,
  queueFinishedDays,
  queueSystemDays,
  systemPoints,
  writeDay,
  writeModel,
  writeSoiling,
  type ZoneWindow,
} from "./data/losses";
import type { FleetDb } from "./db";

/*
 * The fleet store's loss accounting, run by its alarm: finished plant-local days are queued
 * (and days history filled, and days a moved model changes), then accounted system by system
 * within a time budget, each system in one transaction: its queued days, what its days now teach
 * (calibration, AC limit), and soiling over its recent days. Weather and orientation come from D1.
 */

/** Finished days looked back on: the raw points' retention (35 days) bounds what can be accounted. */
export const LOSS_WINDOW_DAYS = 31;
/** Days of accounts the learning reads back. */
const LEARNING_DAYS = 60;
/** Accounts are kept this long (the month's and last month's lost value, half a year of trends). */
export const LOSS_RETENTION_DAYS = 190;
/** System-days read per batch. */
const BATCH_DAYS = 400;
/**
 * Accounting done between turns given back to the object's other calls, in points read plus
 * DAY_COST_POINTS a day: about 20 days of 5-minute points (~40 ms). A batch of 400 days in one
 * turn held every read and sync page behind it for most of a second.
 */
const LOSS_WORK_PER_TURN = 20 * (288 + 60);
/** Systems whose finished days are queued in one turn. */
const QUEUE_SYSTEMS_PER_TURN = 1_000;
/** A day's own cost in points: a day without points (a silent day) takes about a fifth of one with them. */
const DAY_COST_POINTS = 60;
const DAY_MS = 86_400_000;

export interface LossesPass {
  systems: number;
  daysAccounted: number;
  /** Days left queued because the weather service has not given their hours yet. */
  daysWaiting: number;
  remaining: number;
  queued: number;
  ms: number;
}

/** Each zone's window of finished days at `now`. */
export function zoneWindows(zones: string[], now: number, days = LOSS_WINDOW_DAYS): ZoneWindow[] {
  return zones.map((zone) => {
    const dates = finishedDays(now, zone, days);
    return { zone, from: dates[0] ?? "", to: dates.at(-1) ?? "", dates };
  });
}

/** What the pass needs besides the store: D1, and the organisation whose systems' orientation it reads. */
export interface LossesContext {
  db: FleetDb;
  d1: Db;
  orgId: string;
  /** Runs work in one transaction of the store. */
  transaction: <T>(work: () => T) => T;
}

type Orientations = Map<string, SystemOrientation["effective"]>;

async function readOrientations(d1: Db, orgId: string): Promise<Orientations> {
  const rows = await listOrientationInputs(d1, orgId);
  return new Map(rows.map((row) => [row.systemId, effectiveOrientation(row.input).effective]));
}

/** The model of a system as its stored rows and D1's orientation give it; null without capacity or place. */
function pvSystemOf(row: LossSystemRow, orientation: SystemOrientation["effective"] | undefined) {
  if (!row.capacity_w || row.capacity_w <= 0 || row.latitude === null || row.longitude === null) return null;
  const enteredAcLimitW =
    orientation?.acLimitKw !== null && orientation?.acLimitKw !== undefined
      ? orientation.acLimitKw * 1000
      : null;
  const system: PvSystem = {
    capacityW: row.capacity_w,
    latitude: row.latitude,
    longitude: row.longitude,
    tiltDeg: orientation?.tiltDeg ?? 0,
    azimuthDeg: orientation?.azimuthDeg ?? (row.latitude >= 0 ? 180 : 0),
    acLimitW: enteredAcLimitW ?? row.inferred_ac_limit_w,
    calibration: row.model_calibration ?? DEFAULT_CALIBRATION,
  };
  return { system, enteredAcLimitW };
}

/**
 * One pass: queues what is due when `queue` says so, then accounts queued system-days until
 * `maxMs` has passed. A day whose weather has not come yet stays queued; days past the raw points'
 * retention are dropped from the queue.
 */
export async function runLossesPass(
  context: LossesContext,
  zones: string[],
  now: number,
  options: { maxMs: number; queue: boolean },
): Promise<LossesPass> {
  const started = Date.now();
  const { db, d1 } = context;
  const windows = zoneWindows(zones, now);
  const oldest = windows.reduce((min, w) => (w.from !== "" && w.from < min ? w.from : min), "9999-12-31");
  const pass: LossesPass = { systems: 0, daysAccounted: 0, daysWaiting: 0, remaining: 0, queued: 0, ms: 0 };
  if (options.queue) {
    context.transaction(() => {
      dropStaleDue(db, oldest);
      pruneLosses(db, shiftDate(oldest, -(LOSS_RETENTION_DAYS - LOSS_WINDOW_DAYS)), 5_000);
    });
    // A range of system keys a turn: the whole fleet's 31 days in one went through ~4 M rows at
    // 20,000 systems, the store held for seconds every hour.
    const last = lastSystemKey(db);
    for (let fromSys = 1; fromSys <= last; fromSys += QUEUE_SYSTEMS_PER_TURN) {
      if (fromSys > 1) await yieldTurn();
      const toSys = fromSys + QUEUE_SYSTEMS_PER_TURN - 1;
      pass.queued += context.transaction(() => queueFinishedDays(db, windows, { fromSys, toSys }));
    }
  }
  let orientations: Orientations | null = null;
  const recounted = new Set<number>();
  let waiting = 0;
  // Systems in key order, each once a pass: a system whose days wait on weather does not hold up the rest.
  let afterSys = 0;
  // At least one batch a pass, however long the queueing took.
  for (let first = true; first || Date.now() - started < options.maxMs; first = false) {
    const due = nextDue(db, afterSys, BATCH_DAYS);
    if (due.size === 0) break;
    afterSys = Math.max(...due.keys());
    orientations ??= await readOrientations(d1, context.orgId);
    const systems = lossSystems(db, [...due.keys()]);
    const weather = await weatherFor(d1, systems, due);
    let workThisTurn = 0;
    for (const row of systems) {
      const dates = due.get(row.sys) ?? [];
      if (workThisTurn >= LOSS_WORK_PER_TURN) {
        await yieldTurn();
        workThisTurn = 0;
      }
      const modelled = pvSystemOf(row, orientations.get(row.system_id));
      const weatherHours = row.location_key ? weather.get(row.location_key) : undefined;
      context.transaction(() => {
        if (!modelled) {
          // Nothing to expect without capacity or place: the days are dropped, not accounted.
          deleteDue(db, row.sys, dates);
          return;
        }
        if (!weatherHours) {
          waiting += dates.length;
          return;
        }
        const result = accountSystem(db, row, modelled, weatherHours, dates, now, !recounted.has(row.sys));
        workThisTurn += result.pointsRead + dates.length * DAY_COST_POINTS;
        if (result.recounted) recounted.add(row.sys);
        pass.daysAccounted += result.accounted;
        waiting += result.waiting.length;
      });
      pass.systems++;
    }
    // Systems with no row in the directory any more.
    for (const sys of due.keys()) {
      if (!systems.some((s) => s.sys === sys))
        context.transaction(() => deleteDue(db, sys, due.get(sys) ?? []));
    }
  }
  pass.daysWaiting = waiting;
  pass.remaining = countDue(db) - waiting;
  pass.ms = Date.now() - started;
  return pass;
}

/** The batch's weather: every location's hours over the span of its systems' queued days. */
async function weatherFor(d1: Db, systems: LossSystemRow[], due: Map<number, string[]>) {
  const keys = [...new Set(systems.flatMap((s) => (s.location_key ? [s.location_key] : [])))];
  const dates = [...due.values()].flat().sort();
  const from = Date.parse(`${dates[0] ?? "2000-01-01"}T00:00:00Z`) - DAY_MS;
  const to = Date.parse(`${dates.at(-1) ?? "2000-01-01"}T00:00:00Z`) + 2 * DAY_MS;
  return weatherByLocation(d1, keys, from, to);
}

/**
 * Accounts one system's queued days, learns from its accounts, and settles soiling. When the
 * learned model moved (and `mayRecount`), the system's window is queued again to be accounted
 * with it.
 */
function accountSystem(
  db: FleetDb,
  row: LossSystemRow,
  modelled: { system: PvSystem; enteredAcLimitW: number | null },
  weather: Map<number, WeatherHour>,
  dates: string[],
  now: number,
  mayRecount: boolean,
) {
  const { system, enteredAcLimitW } = modelled;
  const inverters = inverterKeys(db, row.sys);
  const inverterIds = new Map(inverters.map((i) => [i.inverter_id, i.inv]));
  const energy = dailyEnergy(db, row.sys, dates);
  const accounted: string[] = [];
  const waiting: string[] = [];
  let pointsRead = 0;
  const pointsOf = (startMs: number, endMs: number) => {
    const points = systemPoints(db, row.sys, startMs, endMs);
    pointsRead += points.length;
    return points;
  };
  for (const date of dates) {
    const { startMs, endMs } = localDay(date, row.timezone);
    const day = accountDay({
      date,
      startMs,
      endMs,
      system,
      weather,
      points: pointsOf(startMs, endMs),
      inverters: inverterPoints(db, inverters, startMs, endMs),
      inverterCount: inverters.length,
      counterEnergyWh: energy.get(date) ?? null,
    });
    if (day === null) {
      waiting.push(date);
      continue;
    }
    writeDay(db, row.sys, day, system, inverterIds, now);
    accounted.push(date);
  }
  deleteDue(db, row.sys, accounted);
  const lastDate = dates.at(-1) ?? "";
  const days = accountedDays(db, row.sys, shiftDate(lastDate, -LEARNING_DAYS));
  const learned = learnSystem(days, system.capacityW, enteredAcLimitW);
  writeModel(
    db,
    row.sys,
    {
      calibration: learned.calibration,
      calibrationDays: learned.calibrationDays,
      inferredAcLimitW: learned.acLimitInferred ? learned.acLimitW : null,
    },
    now,
  );
  const recounted = mayRecount && needsRecount(system, learned);
  if (recounted) {
    const windowStart = shiftDate(lastDate, -LOSS_WINDOW_DAYS);
    queueSystemDays(
      db,
      row.sys,
      days.filter((d) => d.date >= windowStart).map((d) => d.date),
    );
  }
  const settled = settleSoiling(days, learned.calibration, system.capacityW);
  writeSoiling(
    db,
    row.sys,
    settled
      .filter((day, i) => day.losses.soiling !== days[i]?.losses.soiling)
      .map((day) => ({
        date: day.date,
        soilingWh: day.losses.soiling,
        underperformanceWh: day.losses.underperformance,
      })),
  );
  return { accounted: accounted.length, waiting, recounted, pointsRead };
}
