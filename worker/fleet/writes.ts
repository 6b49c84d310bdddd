import { importLegacyRows } from "./data/legacy";
import type { HistoryDayInput } from "./data/writes";
import type { FleetDb } from "./db";
import type { DirectoryMirror } from "./directory-mirror";
import type { Readings } from "./readings";
import type { RealtimeHub } from "./realtime-hub";
import type { Schedule } from "./schedule";
import type { SizeWatch } from "./size-watch";
import type { FleetPage, LegacyRows, StoredHistoryDay, StoredPage } from "./types";

export interface WriteParts {
  db: FleetDb;
  storage: DurableObjectStorage;
  mirror: DirectoryMirror;
  readings: Readings;
  hub: RealtimeHub;
  schedule: Schedule;
  /** The store's size against its bound, checked after each write. */
  sizeWatch: SizeWatch;
  /** Something was written: read models rebuild. */
  noteWrite: () => void;
}

/**
 * What the store is sent to keep: a sync page (directory entries, points, live messages), a day
 * of one system's history, the rows of the D1 tables it replaced. Each commits in one transaction,
 * then read models are marked stale, retention scheduled and the store's size checked against its
 * bound; a page's messages are published once it is stored.
 */
export class FleetWrites {
  constructor(private readonly parts: WriteParts) {}

  /** Rows inserted, updated or deleted on this object's database since it started (SQLite's count). */
  private totalChanges(): number {
    return Number(this.parts.storage.sql.exec("SELECT total_changes() AS n").one().n);
  }

  /** Stores one page (directory, points, rollups) in one transaction, then publishes its messages. */
  async storePage(page: FleetPage): Promise<StoredPage> {
    const { storage, mirror, readings, hub, schedule } = this.parts;
    const changesBefore = this.totalChanges();
    const stored = storage.transactionSync(() => {
      mirror.applyPage(page);
      return readings.storePoints(page.points);
    });
    const rowsWritten = this.totalChanges() - changesBefore;
    this.parts.noteWrite();
    await schedule.afterWrite();
    await this.parts.sizeWatch.check();
    const delivered = await hub.publish(page.messages);
    return {
      points: page.points.length,
      hoursRolledUp: stored.hours,
      daysRolledUp: stored.days,
      rowsWritten,
      delivered,
    };
  }

  /**
   * Stores one day of one system's history (a backfill unit) in one transaction: idempotent, and
   * only the hours and day whose points are new are rolled up again. A finished day is accounted
   * (again) with what history brought.
   */
  async storeHistoryDay(day: HistoryDayInput): Promise<StoredHistoryDay> {
    const { storage, readings, schedule } = this.parts;
    const changesBefore = this.totalChanges();
    const stored = storage.transactionSync(() => readings.storeHistoryDay(day));
    const rowsWritten = this.totalChanges() - changesBefore;
    if (rowsWritten > 0) {
      this.parts.noteWrite();
      if (day.dayOver) storage.transactionSync(() => schedule.queueLossDay(day.systemId, day.date));
      await schedule.afterWrite();
      await this.parts.sizeWatch.check();
    }
    return {
      points: day.points.length,
      pointsStored: stored.pointsStored,
      hoursRolledUp: stored.hours,
      daysRolledUp: stored.days,
      rowsWritten,
    };
  }

  /** Rows of the D1 tables this store replaced (the one-time move of worker/engines/legacy-fleet-move.ts). */
  async importLegacy(rows: LegacyRows): Promise<void> {
    this.parts.storage.transactionSync(() => importLegacyRows(this.parts.db, rows));
    this.parts.noteWrite();
    await this.parts.schedule.afterWrite();
    await this.parts.sizeWatch.check();
  }
}
