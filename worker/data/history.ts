import { and, asc, desc, eq, gt } from "drizzle-orm";
import { historyPlanPlants, monitoringSystems, syncRuns } from "../../schema/tables";
import type { BatchStatement, Db } from "../lib/db";
import type { SyncRunUpdate } from "./connections";

/** The systems one connection brought in, by D1 id and the vendor's id: what a backfill covers. */
export const listConnectionSystems = (db: Db, orgId: string, connectionId: string) =>
  db
    .select({ id: monitoringSystems.id, providerSystemId: monitoringSystems.providerSystemId })
    .from(monitoringSystems)
    .where(and(eq(monitoringSystems.orgId, orgId), eq(monitoringSystems.connectionId, connectionId)))
    .orderBy(monitoringSystems.providerSystemId);

/** The next `limit` systems of a connection after `afterId` (by D1 id): one planning step's plants. */
export const listConnectionSystemsAfter = (
  db: Db,
  orgId: string,
  connectionId: string,
  afterId: string,
  limit: number,
) =>
  db
    .select({ id: monitoringSystems.id, providerSystemId: monitoringSystems.providerSystemId })
    .from(monitoringSystems)
    .where(
      and(
        eq(monitoringSystems.orgId, orgId),
        eq(monitoringSystems.connectionId, connectionId),
        gt(monitoringSystems.id, afterId),
      ),
    )
    .orderBy(asc(monitoringSystems.id))
    .limit(limit);

export type HistoryPlanPlantRow = typeof historyPlanPlants.$inferSelect;

/** Seven columns a row: 14 rows keep one statement under D1's 100 bound parameters. */
const PLAN_ROWS_PER_STATEMENT = 14;

/** Statements adding plan rows; a redelivered planning step adds nothing twice (same run and plant). */
export function insertPlanPlants(db: Db, rows: HistoryPlanPlantRow[]): BatchStatement[] {
  const statements: BatchStatement[] = [];
  for (let i = 0; i < rows.length; i += PLAN_ROWS_PER_STATEMENT) {
    statements.push(
      db
        .insert(historyPlanPlants)
        .values(rows.slice(i, i + PLAN_ROWS_PER_STATEMENT))
        .onConflictDoNothing(),
    );
  }
  return statements;
}

/** The plant whose newest missing day is the newest of the run's plan (ties by plant). */
export const claimPlanPlant = (db: Db, runId: string) =>
  db.query.historyPlanPlants.findFirst({
    where: eq(historyPlanPlants.runId, runId),
    orderBy: [desc(historyPlanPlants.nextDate), asc(historyPlanPlants.systemId)],
  });

/**
 * The plant's claimed day is stored: its row moves to its next older day, or goes after its last.
 * Conditional on the count it was claimed at, so a second delivery of the same unit moves nothing.
 */
export function finishPlanDay(db: Db, row: HistoryPlanPlantRow): BatchStatement {
  const where = and(
    eq(historyPlanPlants.runId, row.runId),
    eq(historyPlanPlants.systemId, row.systemId),
    eq(historyPlanPlants.done, row.done),
  );
  const older = row.dates[row.dates.length - 2 - row.done];
  if (older === undefined) return db.delete(historyPlanPlants).where(where);
  return db
    .update(historyPlanPlants)
    .set({ done: row.done + 1, nextDate: older })
    .where(where);
}

/** What is left of an ended run's plan. */
export const deletePlan = (db: Db, runId: string) =>
  db.delete(historyPlanPlants).where(eq(historyPlanPlants.runId, runId));

/** A history unit's commit of its run, as a statement for the batch that also moves its plan row. */
export const commitHistoryUnit = (db: Db, runId: string, unitSeq: number, values: SyncRunUpdate) =>
  db
    .update(syncRuns)
    .set({ ...values, unitSeq: unitSeq + 1 })
    .where(and(eq(syncRuns.id, runId), eq(syncRuns.unitSeq, unitSeq), eq(syncRuns.status, "running")));
