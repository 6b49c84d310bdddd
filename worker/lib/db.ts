import { drizzle } from "drizzle-orm/d1";
import * as tables from "../../schema/tables";

const newDb = (d1: D1Database) => drizzle(d1, { schema: tables });
export type Db = ReturnType<typeof newDb>;

// drizzle builds its relational config from the schema on every call; reuse it per binding.
const dbs = new WeakMap<D1Database, Db>();

export function createDb(d1: D1Database): Db {
  let db = dbs.get(d1);
  if (!db) {
    db = newDb(d1);
    dbs.set(d1, db);
  }
  return db;
}

/** A drizzle query builder (not yet run) or a raw D1 statement. */
export type BatchStatement = D1PreparedStatement | { toSQL(): { sql: string; params: unknown[] } };

/**
 * Runs statements as one D1 batch: one round trip and one transaction, so they commit or fail
 * together. Accepts drizzle builders next to raw statements (bulk json_each upserts).
 */
export async function runBatch(db: Db, statements: BatchStatement[]) {
  if (statements.length === 0) return [];
  const prepared = statements.map((s) => {
    if (!("toSQL" in s)) return s;
    const query = s.toSQL();
    return db.$client.prepare(query.sql).bind(...query.params);
  });
  return db.$client.batch(prepared);
}

/**
 * Runs groups of statements in D1 batches of at most `maxStatements` (a group larger than that
 * alone), one after another: each group commits whole, with the groups before it. Answers how
 * many batches ran. For writes that can grow with a fleet (thousands of alerts at once), where
 * one batch — one transaction — would run past the time D1 gives a query.
 */
export async function runGroupedBatches(db: Db, groups: BatchStatement[][], maxStatements: number) {
  let batch: BatchStatement[] = [];
  let batches = 0;
  for (const group of groups) {
    if (batch.length > 0 && batch.length + group.length > maxStatements) {
      await runBatch(db, batch);
      batches++;
      batch = [];
    }
    batch.push(...group);
  }
  if (batch.length > 0) {
    await runBatch(db, batch);
    batches++;
  }
  return batches;
}
