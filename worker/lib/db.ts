import { drizzle } from "drizzle-orm/d1";
import * as tables from "../../schema/tables";

export const createDb = (d1: D1Database) => drizzle(d1, { schema: tables });
export type Db = ReturnType<typeof createDb>;

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
