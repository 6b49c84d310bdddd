import { and, asc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { ProviderId } from "../../schema/api/providers";
import type { SiteLocationSource } from "../../schema/domain";
import { monitoringSystems, organizations } from "../../schema/tables";
import { timezoneAt } from "../domain/geo/timezone-at";
import type { Db } from "../lib/db";
import { newId } from "../lib/ids";
import type { NormalisedSystem } from "../providers/types";
import type { SyncScope } from "./monitoring";

/** One plant to give a site of its own, with the place the site takes. */
export interface PlantSite {
  provider: ProviderId;
  providerSystemId: string;
  siteId: string;
  latitude: number;
  longitude: number;
  timezone: string;
  source: SiteLocationSource;
  /** The address the site shows; null takes the plant's own address (or its coordinates). */
  address: string | null;
  location: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
}

export interface PlantSiteOptions {
  orgId: string;
  now: number;
  /** Sync and cron: only while the organisation's setting is on and the plant was never offered one. */
  automatic: boolean;
  actorId: string | null;
  actorEmail: string | null;
}

/** A plant_sites row's field, read inside the SQL text. */
const f = (name: keyof PlantSite) => `json_extract(j.value, '$.${name}')`;

/** The plants the statements may take: free, of the organisation, and (automatic) not offered before. */
function plantCondition(automatic: boolean) {
  return `ms.org_id = ?1 AND ms.provider = ${f("provider")} AND ms.provider_system_id = ${f("providerSystemId")}
    AND ms.site_id IS NULL${
      automatic
        ? " AND ms.auto_site_at IS NULL AND (SELECT o.auto_create_sites FROM organizations o WHERE o.id = ?1) = 1"
        : ""
    }`;
}

/**
 * Three statements, batched (one transaction): insert a site for each plant still free, attach
 * the plant to it, and audit each site made. A plant that another request took meanwhile gets
 * no site, so two syncs of one page never make two sites for it.
 */
export function plantSiteStatements(db: Db, plants: PlantSite[], options: PlantSiteOptions) {
  const json = JSON.stringify(plants);
  const { orgId, now } = options;
  const insert = db.$client
    .prepare(
      `INSERT INTO sites (id, org_id, name, address, location, latitude, longitude, city, state, country,
         timezone, location_source, provider, capacity_kw, is_active, created_at, updated_at)
       SELECT ${f("siteId")}, ms.org_id, ms.name,
         coalesce(${f("address")}, ms.address, printf('%.5f, %.5f', ${f("latitude")}, ${f("longitude")})),
         coalesce(${f("location")}, ms.address), ${f("latitude")}, ${f("longitude")},
         ${f("city")}, ${f("state")}, ${f("country")}, ${f("timezone")}, ${f("source")}, ms.provider, NULL, 1, ?2, ?2
       FROM json_each(?3) j CROSS JOIN monitoring_systems ms ON ${plantCondition(options.automatic)}`,
    )
    .bind(orgId, now, json);
  // All three statements start from the page's JSON (CROSS JOIN keeps it outermost, and the
  // attachment's plants are materialised before the update joins them by id): each plant is a
  // few index lookups. Left to itself the planner walks the organisation's free plants and reads
  // the whole JSON for each (~15 ms a statement for a page of 100 plants, holding the database),
  // or scans its sites once per plant (5 s at 2,000 sites).
  const attach = db.$client
    .prepare(
      `WITH m AS MATERIALIZED (
         SELECT s.id AS site_id, ms.id AS system_id
         FROM json_each(?3) j CROSS JOIN sites s ON s.id = ${f("siteId")}
         CROSS JOIN monitoring_systems ms ON ms.org_id = ?1 AND ms.provider = ${f("provider")}
           AND ms.provider_system_id = ${f("providerSystemId")}
         WHERE s.org_id = ?1 AND s.created_at = ?2 AND ms.site_id IS NULL)
       UPDATE monitoring_systems SET site_id = m.site_id, auto_site_at = ?2
       FROM m WHERE monitoring_systems.id = m.system_id`,
    )
    .bind(orgId, now, json);
  const audit = db.$client
    .prepare(
      `INSERT INTO audit_logs (id, org_id, actor_id, actor_email, action, target_type, target_id, details, ip, created_at)
       SELECT lower(hex(randomblob(16))), s.org_id, ?4, ?5, 'site.create_from_plant', 'site', s.id,
         json_object('name', s.name, 'locationSource', s.location_source, 'systemId', ms.id, 'automatic', ?6),
         NULL, ?2
       FROM json_each(?3) j CROSS JOIN sites s ON s.id = ${f("siteId")}
       CROSS JOIN monitoring_systems ms ON ms.org_id = ?1 AND ms.site_id = s.id
       WHERE s.org_id = ?1 AND s.created_at = ?2`,
    )
    .bind(orgId, now, json, options.actorId, options.actorEmail, options.automatic ? 1 : 0);
  return [insert, attach, audit];
}

/** Marks plants as offered a site (their address found no place), so the cron does not ask again. */
export const markPlantsOffered = (db: Db, orgId: string, systemIds: string[], now: number) =>
  db
    .update(monitoringSystems)
    .set({ autoSiteAt: now })
    .where(
      and(
        eq(monitoringSystems.orgId, orgId),
        sql`${monitoringSystems.id} IN (SELECT value FROM json_each(${JSON.stringify(systemIds)}))`,
      ),
    );

const plantColumns = {
  id: monitoringSystems.id,
  orgId: monitoringSystems.orgId,
  provider: monitoringSystems.provider,
  providerSystemId: monitoringSystems.providerSystemId,
  name: monitoringSystems.name,
  address: monitoringSystems.address,
  latitude: monitoringSystems.latitude,
  longitude: monitoringSystems.longitude,
  timezone: monitoringSystems.timezone,
};
export type PlantRecord = Awaited<ReturnType<typeof listFreePlants>>[number];

/** The organisation's plants attached to no site: all, or those of the given ids. */
export const listFreePlants = (db: Db, orgId: string, systemIds?: string[]) =>
  db
    .select(plantColumns)
    .from(monitoringSystems)
    .where(
      and(
        eq(monitoringSystems.orgId, orgId),
        isNull(monitoringSystems.siteId),
        systemIds === undefined
          ? undefined
          : sql`${monitoringSystems.id} IN (SELECT value FROM json_each(${JSON.stringify(systemIds)}))`,
      ),
    )
    .orderBy(asc(monitoringSystems.name), asc(monitoringSystems.id));

/**
 * Plants that await a geocoded site, across organisations (the maintenance cron's work list):
 * free, never offered one, with an address but no coordinates, in an organisation whose setting is on.
 */
export const listPlantsAwaitingGeocode = (db: Db, limit: number) =>
  db
    .select(plantColumns)
    .from(monitoringSystems)
    .innerJoin(organizations, eq(organizations.id, monitoringSystems.orgId))
    .where(
      and(
        eq(organizations.autoCreateSites, true),
        isNull(monitoringSystems.siteId),
        isNull(monitoringSystems.autoSiteAt),
        isNull(monitoringSystems.latitude),
        isNotNull(monitoringSystems.address),
        sql`trim(${monitoringSystems.address}) <> ''`,
      ),
    )
    .orderBy(asc(monitoringSystems.createdAt), asc(monitoringSystems.id))
    .limit(limit);

export const readOrgSettings = (db: Db, orgId: string) =>
  db.query.organizations.findFirst({
    columns: { autoCreateSites: true },
    where: eq(organizations.id, orgId),
  });

export const updateOrgSettings = (db: Db, orgId: string, values: { autoCreateSites?: boolean }) =>
  db.update(organizations).set(values).where(eq(organizations.id, orgId));

/** A site made at the plant's own (vendor) coordinates. */
export function vendorPlace(
  provider: PlantSite["provider"],
  providerSystemId: string,
  latitude: number,
  longitude: number,
  timezone: string | null,
): PlantSite {
  return {
    provider,
    providerSystemId,
    siteId: newId(),
    latitude,
    longitude,
    timezone: timezone ?? timezoneAt(latitude, longitude),
    source: "vendor",
    address: null,
    location: null,
    city: null,
    state: null,
    country: null,
  };
}

/**
 * The statements that give a synced page's plants with coordinates a site each, batched with
 * the page's D1 writes. They change nothing while the organisation's setting is off, for a plant
 * already on a site, or for one that was offered a site before. Plants with only an address are
 * geocoded later by the maintenance cron, so a page never waits on the geocoder.
 */
export function pagePlantSiteStatements(db: Db, scope: SyncScope, systems: NormalisedSystem[]) {
  const plants = systems.flatMap((s) =>
    s.latitude === null || s.longitude === null
      ? []
      : [vendorPlace(scope.provider, s.providerSystemId, s.latitude, s.longitude, s.timezone)],
  );
  if (plants.length === 0) return [];
  return plantSiteStatements(db, plants, {
    orgId: scope.orgId,
    now: scope.now,
    automatic: true,
    actorId: null,
    actorEmail: null,
  });
}
