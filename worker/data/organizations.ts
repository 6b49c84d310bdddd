import { and, eq, sql } from "drizzle-orm";
import { monitoringSystems, organizations, users } from "../../schema/tables";
import type { Db } from "../lib/db";

export const insertOrganization = (db: Db, org: typeof organizations.$inferInsert) =>
  db.insert(organizations).values(org);

export const findOrganization = (db: Db, orgId: string) =>
  db.query.organizations.findFirst({ where: eq(organizations.id, orgId) });

/**
 * Deletes an organisation nobody belongs to (any more), with everything D1 holds for it (its
 * tables cascade); 0 rows while it still has a member, so a batch can run it after a guarded move.
 */
export const deleteOrganizationWithoutMembers = (db: Db, orgId: string) =>
  db
    .delete(organizations)
    .where(
      and(
        eq(organizations.id, orgId),
        sql`not exists (select 1 from ${users} where ${users.orgId} = ${orgId})`,
      ),
    );

/** Whether the organisation holds monitoring systems, i.e. its fleet store has a directory. */
export async function organizationHasSystems(db: Db, orgId: string): Promise<boolean> {
  const row = await db
    .select({ id: monitoringSystems.id })
    .from(monitoringSystems)
    .where(eq(monitoringSystems.orgId, orgId))
    .limit(1);
  return row.length > 0;
}
