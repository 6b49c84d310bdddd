import { and, asc, desc, eq, gt, lte } from "drizzle-orm";
import { historyPlanPlants, monitoringSystems } from "../../schema/tables";
import type { BatchStatement, Db } from "../lib/db";

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

/** Six columns a row: 16 rows keep one statement under D1's 100 bound parameters. */
const PLAN_ROWS_PER_STATEMENT = 16;

/** Statements adding plan rows; a redelivered planning step adds nothing twice (same run and first day). */
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

/** The plan row holding day number `day` of the run's plan: the last row starting at or before it. */
export const findPlanPlant = (db: Db, runId: string, day: number) =>
  db.query.historyPlanPlants.findFirst({
    where: and(eq(historyPlanPlants.runId, runId), lte(historyPlanPlants.firstDay, day)),
    orderBy: desc(historyPlanPlants.firstDay),
  });

export const deletePlanPlant = (db: Db, runId: string, firstDay: number) =>
  db
    .delete(historyPlanPlants)
    .where(and(eq(historyPlanPlants.runId, runId), eq(historyPlanPlants.firstDay, firstDay)));

/** What is left of an ended run's plan. */
export const deletePlan = (db: Db, runId: string) =>
  db.delete(historyPlanPlants).where(eq(historyPlanPlants.runId, runId));
