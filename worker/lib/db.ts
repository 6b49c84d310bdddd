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
