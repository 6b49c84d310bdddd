import { and, asc, count, eq, exists, isNotNull, isNull, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ProviderId } from "../../schema/api/providers";
import { monitoringSystems, sites } from "../../schema/tables";
import type { Db } from "../lib/db";
import { invertersRatedW } from "./system-orientation";

export type SiteInsert = typeof sites.$inferInsert;
export type SiteUpdate = Partial<Omit<SiteInsert, "id" | "orgId" | "createdAt">>;

/** A list of ids as one bound JSON parameter: D1 caps bound parameters per statement at 100. */
const idIn = (column: SQLiteColumn, ids: string[]) =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;

/** How many sites the organisation has and which are marked inactive (the dashboard's active sites). */
export async function siteRoster(db: Db, orgId: string) {
  const [[total], inactive] = await db.batch([
    db.select({ count: count() }).from(sites).where(eq(sites.orgId, orgId)),
    db
      .select({ id: sites.id })
      .from(sites)
      .where(and(eq(sites.orgId, orgId), eq(sites.isActive, false))),
  ]);
  return { count: total?.count ?? 0, inactiveIds: inactive.map((row) => row.id) };
}

export const listSites = (db: Db, orgId: string) =>
  db.select().from(sites).where(eq(sites.orgId, orgId)).orderBy(asc(sites.name), asc(sites.id));

export const findSite = (db: Db, orgId: string, siteId: string) =>
  db.query.sites.findFirst({ where: and(eq(sites.orgId, orgId), eq(sites.id, siteId)) });

export const listSitesByIds = (db: Db, orgId: string, siteIds: string[]) =>
  db
    .select()
    .from(sites)
    .where(and(eq(sites.orgId, orgId), idIn(sites.id, siteIds)))
    .orderBy(asc(sites.name), asc(sites.id));

/** The columns a site view needs from a monitoring system, with its inverter count. */
export const systemColumns = {
  id: monitoringSystems.id,
  siteId: monitoringSystems.siteId,
  provider: monitoringSystems.provider,
  providerSystemId: monitoringSystems.providerSystemId,
  name: monitoringSystems.name,
  address: monitoringSystems.address,
  latitude: monitoringSystems.latitude,
  longitude: monitoringSystems.longitude,
  capacityW: monitoringSystems.capacityW,
  state: monitoringSystems.state,
  // Qualified by hand: drizzle drops table prefixes in single-table selects.
  inverterCount: sql<number>`(SELECT count(*) FROM inverters i WHERE i.system_id = monitoring_systems.id)`,
  tiltDeg: monitoringSystems.tiltDeg,
  azimuthDeg: monitoringSystems.azimuthDeg,
  acLimitKw: monitoringSystems.acLimitKw,
  invertersRatedW,
};

const orderSystems = [asc(monitoringSystems.name), asc(monitoringSystems.id)];

/** Every system attached to one of the organisation's sites. */
export const listAttachedSystems = (db: Db, orgId: string) =>
  db
    .select(systemColumns)
    .from(monitoringSystems)
    .where(and(eq(monitoringSystems.orgId, orgId), isNotNull(monitoringSystems.siteId)))
    .orderBy(...orderSystems);

export const listSystemsOfSites = (db: Db, orgId: string, siteIds: string[]) =>
  db
    .select(systemColumns)
    .from(monitoringSystems)
    .where(and(eq(monitoringSystems.orgId, orgId), idIn(monitoringSystems.siteId, siteIds)))
    .orderBy(...orderSystems);

/** The organisation's synced systems not attached to any site. */
export const listAvailableSystems = (db: Db, orgId: string) =>
  db
    .select(systemColumns)
    .from(monitoringSystems)
    .where(and(eq(monitoringSystems.orgId, orgId), isNull(monitoringSystems.siteId)))
    .orderBy(...orderSystems);

/** A system as D1 holds it; its live values are in the organisation's fleet store. */
export type SystemRecord = Awaited<ReturnType<typeof listAvailableSystems>>[number];

export const findSystem = (db: Db, orgId: string, systemId: string) =>
  db.query.monitoringSystems.findFirst({
    where: and(eq(monitoringSystems.orgId, orgId), eq(monitoringSystems.id, systemId)),
  });

export const findSystemByProviderId = (
  db: Db,
  orgId: string,
  provider: ProviderId,
  providerSystemId: string,
) =>
  db.query.monitoringSystems.findFirst({
    where: and(
      eq(monitoringSystems.orgId, orgId),
      eq(monitoringSystems.provider, provider),
      eq(monitoringSystems.providerSystemId, providerSystemId),
    ),
  });

export const insertSite = (db: Db, row: SiteInsert) => db.insert(sites).values(row);

export const updateSite = (db: Db, orgId: string, siteId: string, values: SiteUpdate) =>
  db
    .update(sites)
    .set(values)
    .where(and(eq(sites.orgId, orgId), eq(sites.id, siteId)));

export const deleteSite = (db: Db, orgId: string, siteId: string) =>
  db.delete(sites).where(and(eq(sites.orgId, orgId), eq(sites.id, siteId)));

/** Returns a site's systems to the available list (batched before the site's deletion). */
export const releaseSiteSystems = (db: Db, orgId: string, siteId: string) =>
  db
    .update(monitoringSystems)
    .set({ siteId: null })
    .where(and(eq(monitoringSystems.orgId, orgId), eq(monitoringSystems.siteId, siteId)));

const siteExists = (db: Db, orgId: string, siteId: string) =>
  exists(
    db
      .select({ id: sites.id })
      .from(sites)
      .where(and(eq(sites.orgId, orgId), eq(sites.id, siteId))),
  );

/**
 * Attaches a system to a site only while it is free and the site exists, in one statement:
 * of two requests taking the same system at once, exactly one changes the row.
 */
export const attachSystem = (db: Db, orgId: string, siteId: string, systemId: string) =>
  db
    .update(monitoringSystems)
    .set({ siteId })
    .where(
      and(
        eq(monitoringSystems.orgId, orgId),
        eq(monitoringSystems.id, systemId),
        isNull(monitoringSystems.siteId),
        siteExists(db, orgId, siteId),
      ),
    );

export const detachSystem = (db: Db, orgId: string, siteId: string, systemId: string) =>
  db
    .update(monitoringSystems)
    .set({ siteId: null })
    .where(
      and(
        eq(monitoringSystems.orgId, orgId),
        eq(monitoringSystems.id, systemId),
        eq(monitoringSystems.siteId, siteId),
      ),
    );

/** Holds once the system is attached to the site: guards the audit entry batched after an attach. */
export const systemAttachedTo = (orgId: string, systemId: string, siteId: string) =>
  sql`EXISTS (SELECT 1 FROM monitoring_systems WHERE org_id = ${orgId} AND id = ${systemId} AND site_id = ${siteId})`;

/** Moves every system of one site to another (a merge). */
export const moveSiteSystems = (db: Db, orgId: string, fromSiteId: string, toSiteId: string) =>
  db
    .update(monitoringSystems)
    .set({ siteId: toSiteId })
    .where(and(eq(monitoringSystems.orgId, orgId), eq(monitoringSystems.siteId, fromSiteId)));

/** Returns the listed systems of a site to the available list (a split, batched before their new sites). */
export const releaseSystems = (db: Db, orgId: string, siteId: string, systemIds: string[]) =>
  db
    .update(monitoringSystems)
    .set({ siteId: null })
    .where(
      and(
        eq(monitoringSystems.orgId, orgId),
        eq(monitoringSystems.siteId, siteId),
        idIn(monitoringSystems.id, systemIds),
      ),
    );
