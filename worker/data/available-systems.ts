import { and, asc, count, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { AvailableSystemsQuery } from "../../schema/api/site-lists";
import { monitoringSystems } from "../../schema/tables";
import type { Db } from "../lib/db";
import { systemColumns } from "./sites";

/*
 * The systems attached to no site a page at a time: in name order by
 * monitoring_systems_org_site_name_idx (organisation, site, name, id), so a page reads its rows
 * from the index rather than sorting every free system of a large account.
 */

function conditions(orgId: string, query: Pick<AvailableSystemsQuery, "q" | "provider">): SQL {
  const where: (SQL | undefined)[] = [eq(monitoringSystems.orgId, orgId), isNull(monitoringSystems.siteId)];
  if (query.provider && query.provider.length > 0)
    where.push(inArray(monitoringSystems.provider, query.provider));
  if (query.q) {
    // instr over lower-cased text: no LIKE wildcards to escape in what the user typed.
    where.push(sql`instr(lower(${monitoringSystems.name} || char(0) || coalesce(${monitoringSystems.address}, '')
      || char(0) || ${monitoringSystems.providerSystemId}), ${query.q.toLowerCase()}) > 0`);
  }
  return and(...where) as SQL;
}

/** One page of the free systems and how many there are in all, in one D1 batch. */
export async function availableSystemsPage(db: Db, orgId: string, query: AvailableSystemsQuery) {
  const where = conditions(orgId, query);
  const [rows, [total]] = await db.batch([
    db
      .select(systemColumns)
      .from(monitoringSystems)
      .where(where)
      .orderBy(asc(monitoringSystems.name), asc(monitoringSystems.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ count: count() }).from(monitoringSystems).where(where),
  ]);
  return { rows, total: total?.count ?? 0 };
}
