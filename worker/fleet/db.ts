import { drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import * as tables from "../../schema/fleet-tables";
import migrations from "./migrations/migrations.js";

type SqlCursor = ReturnType<SqlStorage["exec"]>;

/**
 * Counts the rows SQLite read and wrote for the statements run while a measurement is open: what
 * a pass of scheduled work costs at the price list's rows read and written. Statements of calls
 * that interleave with an open measurement (at its awaits) are counted with it.
 */
export class SqlMeter {
  private cursors: SqlCursor[] | null = null;

  track(cursor: SqlCursor): SqlCursor {
    this.cursors?.push(cursor);
    return cursor;
  }

  /** Runs `work` and answers its value with the rows its statements read and wrote (a nested measurement counts in the outer one too). */
  async measure<T>(work: () => Promise<T>): Promise<{ value: T; rowsRead: number; rowsWritten: number }> {
    const outer = this.cursors;
    const cursors: SqlCursor[] = [];
    this.cursors = cursors;
    try {
      const value = await work();
      let rowsRead = 0;
      let rowsWritten = 0;
      for (const cursor of cursors) {
        rowsRead += cursor.rowsRead;
        rowsWritten += cursor.rowsWritten;
      }
      return { value, rowsRead, rowsWritten };
    } finally {
      // A pass runs thousands of statements: appended one by one, not spread as arguments.
      if (outer) for (const cursor of cursors) outer.push(cursor);
      this.cursors = outer;
    }
  }
}

/** The store's database; with a meter, every statement's cursor is counted while it measures. */
export function createFleetDb(storage: DurableObjectStorage, meter?: SqlMeter) {
  if (!meter) return drizzle(storage, { schema: tables });
  // Drizzle's session uses only these two members of the storage.
  const metered = {
    sql: {
      exec: (query: string, ...bindings: unknown[]) => meter.track(storage.sql.exec(query, ...bindings)),
    },
    transactionSync: <T>(work: () => T): T => storage.transactionSync(work),
  } as unknown as DurableObjectStorage;
  return drizzle(metered, { schema: tables });
}
export type FleetDb = ReturnType<typeof createFleetDb>;

/** Applies the store's drizzle-kit migrations (bundled with the worker) that this object has not run. */
export function migrateFleetDb(db: FleetDb): Promise<void> {
  return migrate(db, migrations);
}
