import { and, desc, eq, gt, gte, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { ProviderId } from "../../schema/api/providers";
import { providerConnections, syncRuns } from "../../schema/tables";
import type { Db } from "../lib/db";

export type ConnectionInsert = typeof providerConnections.$inferInsert;
export type ConnectionUpdate = Partial<Omit<ConnectionInsert, "id" | "orgId" | "provider" | "createdAt">>;

export const findConnection = (db: Db, orgId: string, provider: ProviderId) =>
  db.query.providerConnections.findFirst({
    where: and(eq(providerConnections.orgId, orgId), eq(providerConnections.provider, provider)),
  });

export const findConnectionById = (db: Db, connectionId: string) =>
  db.query.providerConnections.findFirst({ where: eq(providerConnections.id, connectionId) });

/** Every connection of an organisation with how many systems it has synced. */
export const listConnectionsWithCounts = (db: Db, orgId: string) =>
  db
    .select({
      connection: providerConnections,
      // Qualified by hand: drizzle drops table prefixes in single-table selects, which would
      // make both columns resolve to monitoring_systems inside the subquery.
      systemsCount: sql<number>`(SELECT count(*) FROM monitoring_systems ms WHERE ms.connection_id = provider_connections.id)`,
    })
    .from(providerConnections)
    .where(eq(providerConnections.orgId, orgId))
    .orderBy(providerConnections.provider);

/** Saving credentials again replaces them and re-activates the connection. */
export const upsertConnection = (db: Db, row: ConnectionInsert) =>
  db
    .insert(providerConnections)
    .values(row)
    .onConflictDoUpdate({
      target: [providerConnections.orgId, providerConnections.provider],
      set: {
        credentialsCiphertext: row.credentialsCiphertext,
        credentialsIv: row.credentialsIv,
        credentialsKeyId: row.credentialsKeyId ?? null,
        sessionCiphertext: null,
        sessionIv: null,
        sessionKeyId: null,
        status: "active",
        lastError: null,
        consecutiveFailures: 0,
        nextSyncAt: row.nextSyncAt,
        updatedAt: row.updatedAt,
      },
    });

export const deleteConnection = (db: Db, orgId: string, provider: ProviderId) =>
  db
    .delete(providerConnections)
    .where(and(eq(providerConnections.orgId, orgId), eq(providerConnections.provider, provider)));

export const updateConnection = (db: Db, connectionId: string, values: ConnectionUpdate) =>
  db.update(providerConnections).set(values).where(eq(providerConnections.id, connectionId));

/**
 * Takes the connection's sync lease for run `runId` if nobody holds it. The conditional update is
 * atomic in SQLite, so of two runs started together exactly one gets the row back.
 */
export async function claimLease(
  db: Db,
  connectionId: string,
  runId: string,
  now: number,
  until: number,
  { onlyIfDue = false }: { onlyIfDue?: boolean } = {},
): Promise<boolean> {
  const rows = await db
    .update(providerConnections)
    .set({ leaseUntil: until, leaseRunId: runId })
    .where(
      and(
        eq(providerConnections.id, connectionId),
        or(isNull(providerConnections.leaseUntil), lt(providerConnections.leaseUntil, now)),
        // A scheduled start whose cycle another run already took (a member's sync, a second
        // delivery) finds the connection no longer due, or paused.
        onlyIfDue
          ? and(eq(providerConnections.status, "active"), lte(providerConnections.nextSyncAt, now))
          : undefined,
      ),
    )
    .returning({ id: providerConnections.id });
  return rows.length === 1;
}

/** Extends the lease while run `runId` still holds it; false once another run has it. */
export async function renewLease(
  db: Db,
  connectionId: string,
  runId: string,
  until: number,
): Promise<boolean> {
  const rows = await db
    .update(providerConnections)
    .set({ leaseUntil: until })
    .where(and(eq(providerConnections.id, connectionId), eq(providerConnections.leaseRunId, runId)))
    .returning({ id: providerConnections.id });
  return rows.length === 1;
}

/**
 * The connection's outcome of run `runId`, written only while that run holds the lease, which it
 * frees; `countRoutine` counts a scheduled run that went well and keeps no row of its own.
 */
export const closeLease = (
  db: Db,
  connectionId: string,
  runId: string,
  values: ConnectionUpdate,
  { countRoutine = false }: { countRoutine?: boolean } = {},
) =>
  db
    .update(providerConnections)
    .set({
      ...values,
      leaseUntil: null,
      leaseRunId: null,
      ...(countRoutine ? { routineSyncs: sql`${providerConnections.routineSyncs} + 1` } : {}),
    })
    .where(and(eq(providerConnections.id, connectionId), eq(providerConnections.leaseRunId, runId)));

/** Makes the connection's snapshot due now (a member asked for one); background history makes way for it. */
export const markSnapshotDue = (db: Db, connectionId: string, now: number) =>
  db.update(providerConnections).set({ nextSyncAt: now }).where(eq(providerConnections.id, connectionId));

export const insertSyncRun = (db: Db, row: typeof syncRuns.$inferInsert) => db.insert(syncRuns).values(row);

export type SyncRunUpdate = Partial<typeof syncRuns.$inferInsert>;

export const updateSyncRun = (db: Db, runId: string, values: SyncRunUpdate) =>
  db.update(syncRuns).set(values).where(eq(syncRuns.id, runId));

/** Ends a run that is still running; a run that already ended (a late, abandoned unit) stays as it ended. */
export const endRunningSyncRun = (db: Db, runId: string, values: SyncRunUpdate) =>
  db
    .update(syncRuns)
    .set(values)
    .where(and(eq(syncRuns.id, runId), eq(syncRuns.status, "running")));

export const findSyncRunById = (db: Db, runId: string) =>
  db.query.syncRuns.findFirst({ where: eq(syncRuns.id, runId) });

export const findOrgSyncRun = (db: Db, orgId: string, runId: string) =>
  db.query.syncRuns.findFirst({ where: and(eq(syncRuns.orgId, orgId), eq(syncRuns.id, runId)) });

/**
 * Commits unit `unitSeq` of a running run: of two deliveries of the same unit, only the first to
 * commit gets the row back (and sends the next unit).
 */
export async function commitRunUnit(db: Db, runId: string, unitSeq: number, values: SyncRunUpdate) {
  const rows = await db
    .update(syncRuns)
    .set({ ...values, unitSeq: unitSeq + 1 })
    .where(and(eq(syncRuns.id, runId), eq(syncRuns.unitSeq, unitSeq), eq(syncRuns.status, "running")))
    .returning();
  return rows[0];
}

/** Running runs whose last unit committed before `before`, oldest first. */
export const findStalledRuns = (db: Db, before: number, limit: number) =>
  db
    .select()
    .from(syncRuns)
    .where(and(eq(syncRuns.status, "running"), lt(syncRuns.progressAt, before)))
    .orderBy(syncRuns.progressAt)
    .limit(limit);

export const listSyncRuns = (db: Db, orgId: string, connectionId: string, limit: number) =>
  db
    .select()
    .from(syncRuns)
    .where(and(eq(syncRuns.orgId, orgId), eq(syncRuns.connectionId, connectionId)))
    .orderBy(desc(syncRuns.startedAt))
    .limit(limit);

/** Every connection's id and encrypted values, for re-encryption under a new key. */
export const listConnectionSecrets = (db: Db) =>
  db
    .select({
      id: providerConnections.id,
      orgId: providerConnections.orgId,
      credentialsCiphertext: providerConnections.credentialsCiphertext,
      credentialsIv: providerConnections.credentialsIv,
      credentialsKeyId: providerConnections.credentialsKeyId,
      sessionCiphertext: providerConnections.sessionCiphertext,
      sessionIv: providerConnections.sessionIv,
      sessionKeyId: providerConnections.sessionKeyId,
    })
    .from(providerConnections)
    .orderBy(providerConnections.id);

/** Systems imported (CSV) before the connection existed become the connection's. */
export const adoptImportedSystemsQuery = (
  db: Db,
  orgId: string,
  provider: ProviderId,
  connectionId: string,
) =>
  db.$client
    .prepare(
      "UPDATE monitoring_systems SET connection_id = ? WHERE org_id = ? AND provider = ? AND connection_id IS NULL",
    )
    .bind(connectionId, orgId, provider)
    .run();

/**
 * Removes up to `limit` ended runs that started before `before`, oldest first: one row per
 * connection per cycle would otherwise grow D1 without bound. Running runs are kept whatever
 * their age (maintenance closes them first).
 */
export const deleteOldSyncRuns = (db: Db, before: number, limit: number) =>
  db.delete(syncRuns).where(
    sql`${syncRuns.id} IN (SELECT ${syncRuns.id} FROM ${syncRuns}
      WHERE ${syncRuns.startedAt} < ${before} AND ${syncRuns.status} <> 'running'
      ORDER BY ${syncRuns.startedAt} LIMIT ${limit})`,
  );

/** A place in the (due time, id) order the cron reads connections in. */
export interface DueCursor {
  dueAt: number;
  id: string;
}

/**
 * Up to `limit` active connections due in [from, to), after `after` in (due time, id) order: the
 * cron's window, read without a write. Connections a run holds are included: a history run makes
 * way for a due snapshot, and a start that finds a snapshot run going ends there.
 */
export async function listDueInWindow(
  db: Db,
  { from, to, after, limit }: { from: number; to: number; after: DueCursor | null; limit: number },
): Promise<DueCursor[]> {
  const rows = await db
    .select({ id: providerConnections.id, dueAt: providerConnections.nextSyncAt })
    .from(providerConnections)
    .where(
      and(
        eq(providerConnections.status, "active"),
        gte(providerConnections.nextSyncAt, from),
        lt(providerConnections.nextSyncAt, to),
        after
          ? or(
              gt(providerConnections.nextSyncAt, after.dueAt),
              and(eq(providerConnections.nextSyncAt, after.dueAt), gt(providerConnections.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(providerConnections.nextSyncAt, providerConnections.id)
    .limit(limit);
  return rows.map((r) => ({ id: r.id, dueAt: r.dueAt ?? from }));
}

/**
 * Claims up to `limit` active connections due before `dueBefore` that no run holds, earliest first:
 * the ones a window passed over (a lost start message, a missed tick). Each is answered and made
 * due at `now` in the same D1 batch (one transaction), which puts it in the window being
 * dispatched, so it is claimed once and looked at again only if its start is lost too.
 */
export async function claimOverdueConnections(
  db: Db,
  { now, dueBefore, limit }: { now: number; dueBefore: number; limit: number },
): Promise<{ id: string; dueAt: number }[]> {
  const due = and(
    eq(providerConnections.status, "active"),
    lt(providerConnections.nextSyncAt, dueBefore),
    or(isNull(providerConnections.leaseUntil), lt(providerConnections.leaseUntil, now)),
  );
  // Ordered on (time, id), a total order, so the read and the update pick the same connections.
  const order = [providerConnections.nextSyncAt, providerConnections.id];
  const [claimed] = await db.batch([
    db
      .select({ id: providerConnections.id, dueAt: providerConnections.nextSyncAt })
      .from(providerConnections)
      .where(due)
      .orderBy(...order)
      .limit(limit),
    db
      .update(providerConnections)
      .set({ nextSyncAt: now })
      .where(
        inArray(
          providerConnections.id,
          db
            .select({ id: providerConnections.id })
            .from(providerConnections)
            .where(due)
            .orderBy(...order)
            .limit(limit),
        ),
      ),
  ]);
  return claimed.map((c) => ({ id: c.id, dueAt: now }));
}
