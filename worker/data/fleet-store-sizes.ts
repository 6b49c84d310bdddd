import { desc, eq, sql } from "drizzle-orm";
import { fleetStoreSizes, organizations } from "../../schema/tables";
import type { Db } from "../lib/db";

export interface StoreSizeReport {
  orgId: string;
  /** Which of the organisation's store objects reports: 0 its own, 1.. its shards. */
  shard: number;
  bytes: number;
  boundBytes: number;
  /** Whether the store is at or past 70 % of its bound. */
  over: boolean;
  at: number;
}

/**
 * Records a fleet store's size, one row per (organisation, shard); `over_since` keeps when it first
 * passed the threshold (null below it).
 */
export async function recordStoreSize(db: Db, report: StoreSizeReport): Promise<void> {
  await db
    .insert(fleetStoreSizes)
    .values({
      orgId: report.orgId,
      shard: report.shard,
      bytes: report.bytes,
      boundBytes: report.boundBytes,
      reportedAt: report.at,
      overSince: report.over ? report.at : null,
    })
    .onConflictDoUpdate({
      target: [fleetStoreSizes.orgId, fleetStoreSizes.shard],
      set: {
        bytes: report.bytes,
        boundBytes: report.boundBytes,
        reportedAt: report.at,
        overSince: report.over ? sql`coalesce(${fleetStoreSizes.overSince}, ${report.at})` : null,
      },
    });
}

/** Every store's last report with its organisation's name, largest first. */
export function listStoreSizes(db: Db) {
  return db
    .select({
      orgId: fleetStoreSizes.orgId,
      shard: fleetStoreSizes.shard,
      organizationName: organizations.name,
      bytes: fleetStoreSizes.bytes,
      boundBytes: fleetStoreSizes.boundBytes,
      reportedAt: fleetStoreSizes.reportedAt,
      overSince: fleetStoreSizes.overSince,
    })
    .from(fleetStoreSizes)
    .innerJoin(organizations, eq(organizations.id, fleetStoreSizes.orgId))
    .orderBy(desc(fleetStoreSizes.bytes));
}
