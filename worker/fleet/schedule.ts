import type { DetectionRun } from "../engines/detection";
import type { Env } from "../env";
import { daysSetting } from "../lib/days-setting";
import { createDb } from "../lib/db";
import { deleteMeta, hasSystems, readMeta, writeMeta } from "./data/directory";
import { queueDayOf, systemZones } from "./data/losses";
import type { RetentionRun } from "./data/retention";
import type { FleetDb, SqlMeter } from "./db";
import { type LossesPass, runLossesPass } from "./losses";
import { ownerOf } from "./owner";
import type { Readings } from "./readings";
import type { RealtimeHub } from "./realtime-hub";
import type { SizeWatch } from "./size-watch";

/** The totals of loss passes run at once (Schedule.settleLosses). */
export interface SettledLosses {
  passes: number;
  systems: number;
  daysAccounted: number;
  daysWaiting: number;
  remaining: number;
  rowsRead: number;
  rowsWritten: number;
  ms: number;
}

export const noLossesSettled = (): SettledLosses => ({
  passes: 0,
  systems: 0,
  daysAccounted: 0,
  daysWaiting: 0,
  remaining: 0,
  rowsRead: 0,
  rowsWritten: 0,
  ms: 0,
});

/** Raw 5-minute points are kept this many days unless RAW_RETENTION_DAYS says otherwise. */
export const DEFAULT_RAW_RETENTION_DAYS = 35;
/** Rows one retention run removes at most; a larger backlog continues in the next run. */
export const RETENTION_ROWS_PER_RUN = 50_000;
/**
 * Fault detection over every system runs this often while the store holds systems, so plants
 * that stopped reporting (and send no page to be evaluated after) are found without a cron.
 */
export const DETECTION_INTERVAL_MS = 5 * 60_000;
/** Loss accounting runs hourly (finished days are queued then), continuing a second later while days remain. */
export const LOSSES_INTERVAL_MS = 60 * 60_000;

const DAY_MS = 86_400_000;
/** A run that hit its budget continues this soon; a finished pass comes back the next day. */
const RETENTION_CONTINUE_MS = 1_000;
const LOSSES_CONTINUE_MS = 1_000;
/** A pass's share of one alarm: the rest of the work continues in the next. */
export const LOSSES_PASS_MS = 3_000;
/** Days a history run filled are accounted this soon after (a run stores many in a row). */
const LOSSES_AFTER_HISTORY_MS = 60_000;

/** A pass of loss accounting with the rows its statements read and wrote. */
export type MeteredLossesPass = LossesPass & { rowsRead: number; rowsWritten: number };

const META_RETENTION_CURSOR = "retention_cursor";
const META_FOLD_CURSOR = "fold_cursor";
const META_RETENTION_DUE = "retention_due";
const META_DETECTION_DUE = "detection_due";
const META_LOSSES_DUE = "losses_due";
const META_LOSSES_QUEUED = "losses_queued";

/**
 * Where raw points end at `now`: systems' after RAW_RETENTION_DAYS, inverters' entries in them
 * after INVERTER_RAW_RETENTION_DAYS (the same unless set; see docs/scale.md for what that saves
 * now that they are packed in their systems' points).
 */
export function rawRetentionCutoffs(
  env: Pick<Env, "RAW_RETENTION_DAYS" | "INVERTER_RAW_RETENTION_DAYS">,
  now: number,
): { system_readings: number; inverter_readings: number } {
  const systemDays = daysSetting(env.RAW_RETENTION_DAYS, DEFAULT_RAW_RETENTION_DAYS);
  const inverterDays = daysSetting(env.INVERTER_RAW_RETENTION_DAYS, systemDays);
  return { system_readings: now - systemDays * DAY_MS, inverter_readings: now - inverterDays * DAY_MS };
}

export interface ScheduleParts {
  db: FleetDb;
  storage: DurableObjectStorage;
  env: Env;
  readings: Readings;
  hub: RealtimeHub;
  /** The store's size against its bound, reported with each retention pass (at least daily). */
  sizeWatch: SizeWatch;
  /** Fault detection over every system of the organisation (worker/fleet/detection.ts). */
  detect: (orgId: string, now: number) => Promise<DetectionRun | null>;
  /** Something was written: read models rebuild. */
  noteWrite: () => void;
  /** Counts the rows a pass of loss accounting reads and writes. */
  meter: SqlMeter;
}

/**
 * The store's own schedule, on its one alarm: retention of raw points and hourly rollups older
 * than 13 months (folded into their days), daily, sooner while a backlog remains, with the
 * store's size report; fault detection over every system, loss accounting, and the expiry of the
 * open sockets' sign-ins. Every due time but the sockets' is kept in `meta`, so the alarm can
 * always be set again from what is stored.
 */
export class Schedule {
  constructor(private readonly parts: ScheduleParts) {}

  /** Retention is due a day after the first write, then daily (or a second later while a backlog remains). */
  async afterWrite(): Promise<void> {
    const { db } = this.parts;
    if (readMeta(db, META_RETENTION_DUE) === null)
      writeMeta(db, META_RETENTION_DUE, String(Date.now() + DAY_MS));
    await this.setAlarm();
  }

  /** A finished day that history filled is accounted (again) soon, in the caller's transaction. */
  queueLossDay(systemId: string, date: string): void {
    queueDayOf(this.parts.db, systemId, date);
    this.bringLossesForward(Date.now() + LOSSES_AFTER_HISTORY_MS);
  }

  /**
   * The alarm is set for whichever comes first: the next retention run, the next detection run,
   * the next loss accounting or the earliest token expiry among the open sockets.
   */
  async setAlarm(): Promise<void> {
    const { db, storage, hub } = this.parts;
    const now = Date.now();
    const retention = readMeta(db, META_RETENTION_DUE);
    const detection = this.detectionDue(now);
    const losses = this.lossesDue(now);
    const next = Math.min(
      retention === null ? Number.POSITIVE_INFINITY : Number(retention),
      detection ?? Number.POSITIVE_INFINITY,
      losses ?? Number.POSITIVE_INFINITY,
      ...hub.expiries(now),
    );
    const current = await storage.getAlarm();
    if (!Number.isFinite(next)) {
      // Nothing is due (no systems, no sockets, no retention yet): the store sleeps.
      if (current !== null) await storage.deleteAlarm();
      return;
    }
    if (current !== next) await storage.setAlarm(next);
  }

  /**
   * Closes sockets whose token has expired (without waiting for them to speak), runs one bounded
   * retention pass when it is due (a pass that stops at its budget continues a second later, a
   * finished one comes back the next day), runs fault detection over every system and a pass of
   * loss accounting when they are due, then sets the next alarm.
   */
  async alarm(): Promise<void> {
    const { db, storage, hub } = this.parts;
    const now = Date.now();
    hub.closeExpired(now);
    const retentionDue = readMeta(db, META_RETENTION_DUE);
    if (retentionDue !== null && Number(retentionDue) <= now) {
      const stored = readMeta(db, META_RETENTION_CURSOR);
      const run = this.runRetention(now, stored ? (JSON.parse(stored) as RetentionRun["cursor"]) : null);
      const fold = this.runFold(now);
      const backlog = run.cursor !== null || fold.next !== null;
      writeMeta(db, META_RETENTION_DUE, String(now + (backlog ? RETENTION_CONTINUE_MS : DAY_MS)));
      await this.parts.sizeWatch.check(now);
    }
    const detectionDue = readMeta(db, META_DETECTION_DUE);
    if (detectionDue !== null && Number(detectionDue) <= now) {
      // The next run is set first: a failed run is not retried before its turn.
      writeMeta(db, META_DETECTION_DUE, String(now + DETECTION_INTERVAL_MS));
      const orgId = ownerOf(db);
      if (orgId !== null) await this.parts.detect(orgId, now);
    }
    const lossesDue = readMeta(db, META_LOSSES_DUE);
    if (lossesDue !== null && Number(lossesDue) <= now) {
      // The next run is set first: a failed run is not retried before its turn.
      writeMeta(db, META_LOSSES_DUE, String(now + LOSSES_INTERVAL_MS));
      const pass = await this.runLosses(now, LOSSES_PASS_MS);
      if (pass && pass.remaining > 0) writeMeta(db, META_LOSSES_DUE, String(now + LOSSES_CONTINUE_MS));
    }
    await storage.deleteAlarm();
    await this.setAlarm();
  }

  /** A retention run at `now` from a cursor; the cursor for the next run is stored. */
  runRetention(now: number, cursor: RetentionRun["cursor"]): RetentionRun {
    const { db, storage, env, readings } = this.parts;
    const run = storage.transactionSync(() => {
      const result = readings.prune(
        { beforeMs: rawRetentionCutoffs(env, now), maxRows: RETENTION_ROWS_PER_RUN },
        cursor,
      );
      writeMeta(db, META_RETENTION_CURSOR, JSON.stringify(result.cursor));
      return result;
    });
    if (run.removed > 0) this.parts.noteWrite();
    return run;
  }

  /**
   * One bounded step of folding hourly rollups older than 13 months at `now` into their days
   * (RETENTION_ROWS_PER_RUN hours at most), from where the last step stopped; where the next goes
   * on is stored (null: every system done, the next pass starts over).
   */
  runFold(now: number): { folded: number; next: number | null } {
    const { db, storage, readings } = this.parts;
    const fold = storage.transactionSync(() => {
      const result = readings.foldOldHours(
        now,
        RETENTION_ROWS_PER_RUN,
        Number(readMeta(db, META_FOLD_CURSOR) ?? 0),
      );
      if (result.next === null) deleteMeta(db, META_FOLD_CURSOR);
      else writeMeta(db, META_FOLD_CURSOR, String(result.next));
      return result;
    });
    if (fold.folded > 0) this.parts.noteWrite();
    return fold;
  }

  /**
   * Accounts every due day now, pass after pass, queueing the finished days first (unless
   * `queue` is false): what the alarm does over time, at once (tools, tests, the benchmark).
   * Answers the passes' totals.
   */
  async settleLosses(now: number, maxMs: number, queue = true): Promise<SettledLosses> {
    const started = Date.now();
    const total = noLossesSettled();
    let queueFirst = queue;
    while (Date.now() - started < maxMs) {
      const pass = await this.runLosses(now, maxMs - (Date.now() - started), queueFirst);
      queueFirst = false;
      if (!pass) break;
      total.passes++;
      total.systems += pass.systems;
      total.daysAccounted += pass.daysAccounted;
      total.rowsRead += pass.rowsRead;
      total.rowsWritten += pass.rowsWritten;
      total.daysWaiting = pass.daysWaiting;
      total.remaining = pass.remaining;
      if (pass.remaining <= 0 || pass.daysAccounted === 0) break;
    }
    total.ms = Date.now() - started;
    return total;
  }

  /**
   * When detection is next due: DETECTION_INTERVAL_MS after it was first needed or last ran, while
   * the directory holds systems; never for a store without systems (it is unscheduled then).
   */
  private detectionDue(now: number): number | null {
    const { db } = this.parts;
    if (!hasSystems(db)) {
      deleteMeta(db, META_DETECTION_DUE);
      return null;
    }
    const due = readMeta(db, META_DETECTION_DUE);
    if (due !== null) return Number(due);
    writeMeta(db, META_DETECTION_DUE, String(now + DETECTION_INTERVAL_MS));
    return now + DETECTION_INTERVAL_MS;
  }

  /**
   * When loss accounting is next due: hourly while the directory holds systems (an hour after the
   * first, or a minute after history stored a finished day).
   */
  private lossesDue(now: number): number | null {
    const { db } = this.parts;
    if (!hasSystems(db)) {
      deleteMeta(db, META_LOSSES_DUE);
      return null;
    }
    const due = readMeta(db, META_LOSSES_DUE);
    if (due !== null) return Number(due);
    writeMeta(db, META_LOSSES_DUE, String(now + LOSSES_INTERVAL_MS));
    return now + LOSSES_INTERVAL_MS;
  }

  /** Loss accounting no later than `at`. */
  private bringLossesForward(at: number): void {
    const { db } = this.parts;
    const due = readMeta(db, META_LOSSES_DUE);
    if (due === null || Number(due) > at) writeMeta(db, META_LOSSES_DUE, String(at));
  }

  /**
   * One pass of loss accounting at `now` within `maxMs` (worker/fleet/losses.ts): finished days
   * are queued at most hourly. A failure is logged, never thrown (the alarm's other work stands).
   */
  private async runLosses(now: number, maxMs: number, queue?: boolean): Promise<MeteredLossesPass | null> {
    const { db, storage, env } = this.parts;
    const orgId = ownerOf(db);
    if (orgId === null) return null;
    const queuedAt = Number(readMeta(db, META_LOSSES_QUEUED) ?? 0);
    const queueNow = queue ?? now - queuedAt >= LOSSES_INTERVAL_MS;
    try {
      const measured = await this.parts.meter.measure(() =>
        runLossesPass(
          { db, d1: createDb(env.DB), orgId, transaction: (work) => storage.transactionSync(work) },
          systemZones(db),
          now,
          { maxMs, queue: queueNow },
        ),
      );
      const pass = { ...measured.value, rowsRead: measured.rowsRead, rowsWritten: measured.rowsWritten };
      if (queueNow) writeMeta(db, META_LOSSES_QUEUED, String(now));
      if (pass.daysAccounted > 0) this.parts.noteWrite();
      return pass;
    } catch (error) {
      console.error(JSON.stringify({ msg: "loss accounting failed", orgId, error: String(error) }));
      return null;
    }
  }
}
