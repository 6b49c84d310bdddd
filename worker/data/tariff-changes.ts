import { sql } from "drizzle-orm";
import type { Db } from "../lib/db";

/**
 * The days in (from, to] on which any price of the organisation (its default or a site's) changes:
 * between two of them every site has one price, so losses are valued per stretch, not per day.
 */
export async function tariffChangeDates(db: Db, orgId: string, from: string, to: string): Promise<string[]> {
  const rows = await db.all<{ valid_from: string }>(sql`
    SELECT valid_from FROM org_tariffs WHERE org_id = ${orgId} AND valid_from > ${from} AND valid_from <= ${to}
    UNION
    SELECT valid_from FROM site_tariffs WHERE org_id = ${orgId} AND valid_from > ${from} AND valid_from <= ${to}
    ORDER BY valid_from`);
  return rows.map((row) => row.valid_from);
}
