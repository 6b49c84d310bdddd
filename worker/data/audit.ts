import { and, count, desc, eq, gte, lt, lte, or, type SQL, sql } from "drizzle-orm";
import { auditLogs } from "../../schema/tables";
import type { Db } from "../lib/db";

export type AuditRow = typeof auditLogs.$inferSelect;
export type AuditInsert = Omit<typeof auditLogs.$inferInsert, "id" | "createdAt">;

export const insertAuditEntry = (db: Db, entry: AuditInsert, now: number) =>
  db.insert(auditLogs).values({ ...entry, id: crypto.randomUUID(), createdAt: now });

/**
 * The same insert, made only if `condition` holds when it runs: batched after a guarded change,
 * it records the change only when the change happened. Columns in the table's order.
 */
/** A condition built by another data module, checked when the batch runs. */
export type AuditCondition = SQL;

export const insertAuditEntryIf = (db: Db, entry: AuditInsert, now: number, condition: AuditCondition) =>
  db
    .insert(auditLogs)
    .select(
      sql`select ${crypto.randomUUID()}, ${entry.orgId ?? null}, ${entry.actorId ?? null}, ${entry.actorEmail ?? null}, ${entry.action}, ${entry.targetType ?? null}, ${entry.targetId ?? null}, ${entry.details == null ? null : JSON.stringify(entry.details)}, ${entry.ip ?? null}, ${now} where ${condition}`,
    );

export interface AuditFilter {
  /** Null reads every organisation's entries (superAdmin only; decided by the service). */
  orgId: string | null;
  action?: string;
  actorEmail?: string;
  targetType?: string;
  fromMs?: number;
  toMs?: number;
}

function auditConditions(filter: AuditFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.orgId !== null) conditions.push(eq(auditLogs.orgId, filter.orgId));
  if (filter.action) conditions.push(eq(auditLogs.action, filter.action));
  if (filter.actorEmail) {
    // The user's text is matched literally: % and _ are escaped, not wildcards.
    const literal = filter.actorEmail.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`);
    conditions.push(sql`${auditLogs.actorEmail} LIKE ${`%${literal}%`} ESCAPE '\\'`);
  }
  if (filter.targetType) conditions.push(eq(auditLogs.targetType, filter.targetType));
  if (filter.fromMs !== undefined) conditions.push(gte(auditLogs.createdAt, filter.fromMs));
  if (filter.toMs !== undefined) conditions.push(lte(auditLogs.createdAt, filter.toMs));
  return conditions;
}

/** One numbered page, newest first, and how many entries match (the Audit Logs screen's pager). */
export async function listAuditEntries(db: Db, filter: AuditFilter, page: { limit: number; offset: number }) {
  const conditions = auditConditions(filter);
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(auditLogs)
      .where(where)
      .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(auditLogs).where(where),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

/** Where a page of entries ends, in the log's order (newest first). */
export interface AuditCursor {
  createdAt: number;
  id: string;
}

/**
 * `limit` entries after `after`, newest first: keyset pagination for reading the whole log, each
 * page read from where the last ended instead of skipping rows.
 */
export function listAuditEntriesAfter(db: Db, filter: AuditFilter, limit: number, after: AuditCursor | null) {
  const conditions = auditConditions(filter);
  if (after) {
    conditions.push(
      or(
        lt(auditLogs.createdAt, after.createdAt),
        and(eq(auditLogs.createdAt, after.createdAt), lt(auditLogs.id, after.id)),
      ) as SQL,
    );
  }
  return db
    .select()
    .from(auditLogs)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
    .limit(limit);
}

/**
 * Removes up to `maxRows` entries written before `before`, oldest first (served by
 * audit_logs_created_idx); answers how many were removed.
 */
export async function deleteAuditEntriesBefore(db: Db, before: number, maxRows: number): Promise<number> {
  const result = await db.$client
    .prepare(
      "DELETE FROM audit_logs WHERE id IN (SELECT id FROM audit_logs WHERE created_at < ? ORDER BY created_at LIMIT ?)",
    )
    .bind(before, maxRows)
    .run();
  return result.meta.changes;
}
