import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { alerts, dataVersions, portfolioSites, portfolios } from "../../schema/tables";
import type { Db } from "../lib/db";
import { listAttachedSystems, listSites } from "./sites";

/*
 * What the organisation's fleet store reads from D1 to answer the site lists (its read model of
 * sites, worker/fleet/read-models/sites.ts): every site row, the systems attached to them, which
 * portfolios hold which site and the open alerts per system, with the three counters that say when
 * any of it changed. Read in one batch, so the rows agree with the counters.
 */

/** The scope of the organisation's counter of portfolio changes (triggers of migration 0025). */
export const listsScope = (orgId: string) => `lists:${orgId}`;
/** The scope of the organisation's counter of alerts raised, resolved or removed (migration 0030). */
const alertsScope = (orgId: string) => `alerts:${orgId}`;
const orgScope = (orgId: string) => `org:${orgId}`;

/** Every (portfolio, site) pair of the organisation with the portfolio's name. */
const portfolioLinks = (db: Db, orgId: string) =>
  db
    .select({ portfolioId: portfolioSites.portfolioId, siteId: portfolioSites.siteId, name: portfolios.name })
    .from(portfolioSites)
    .innerJoin(portfolios, eq(portfolios.id, portfolioSites.portfolioId))
    .where(eq(portfolioSites.orgId, orgId));

/** Open alerts per system (served by alerts_org_resolved_created_idx). */
const openAlertsBySystem = (db: Db, orgId: string) =>
  db
    .select({ systemId: alerts.systemId, count: sql<number>`count(*)` })
    .from(alerts)
    .where(and(eq(alerts.orgId, orgId), eq(alerts.resolved, false), isNotNull(alerts.systemId)))
    .groupBy(alerts.systemId);

const versionsOf = (db: Db, orgId: string) =>
  db
    .select({ scope: dataVersions.scope, version: dataVersions.version })
    .from(dataVersions)
    .where(inArray(dataVersions.scope, [orgScope(orgId), listsScope(orgId), alertsScope(orgId)]));

/** Open alerts per system with the counter they reflect: what an alert raised or resolved changes. */
export async function readOpenAlerts(db: Db, orgId: string) {
  const [versions, openAlerts] = await db.batch([
    db
      .select({ version: dataVersions.version })
      .from(dataVersions)
      .where(eq(dataVersions.scope, alertsScope(orgId))),
    openAlertsBySystem(db, orgId),
  ]);
  return { alerts: versions[0]?.version ?? 0, openAlerts: openAlertCounts(openAlerts) };
}

const openAlertCounts = (rows: { systemId: string | null; count: number }[]) =>
  new Map(rows.flatMap((row) => (row.systemId === null ? [] : [[row.systemId, Number(row.count)] as const])));

export async function readSiteListRows(db: Db, orgId: string) {
  const [versions, sites, systems, links, openAlerts] = await db.batch([
    versionsOf(db, orgId),
    listSites(db, orgId),
    listAttachedSystems(db, orgId),
    portfolioLinks(db, orgId),
    openAlertsBySystem(db, orgId),
  ]);
  const version = (scope: string) => versions.find((row) => row.scope === scope)?.version ?? 0;
  return {
    org: version(orgScope(orgId)),
    lists: version(listsScope(orgId)),
    alerts: version(alertsScope(orgId)),
    sites,
    systems,
    portfolioLinks: links,
    openAlerts: openAlertCounts(openAlerts),
  };
}
export type SiteListRows = Awaited<ReturnType<typeof readSiteListRows>>;
