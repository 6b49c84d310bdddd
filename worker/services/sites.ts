import type { ProviderId } from "../../schema/api/providers";
import type {
  AttachSystemBody,
  AvailableSystem,
  CreateSiteBody,
  EnhancedSite,
  Site,
  SiteDeleted,
  SystemAttached,
  UpdateSiteBody,
} from "../../schema/api/sites";
import type { SiteRow } from "../../schema/tables";
import { removeSiteFromPortfolios } from "../data/portfolios";
import {
  attachSystem as attachSystemQuery,
  deleteSite as deleteSiteQuery,
  detachSystem as detachSystemQuery,
  findSite,
  findSystem,
  findSystemByProviderId,
  insertSite,
  listAttachedSystems,
  listAvailableSystems as listAvailableSystemsQuery,
  listSitesByIds,
  listSites as listSitesQuery,
  listSystemsOfSites,
  releaseSiteSystems,
  type SiteUpdate,
  type SystemRecord,
  systemAttachedTo,
  updateSite as updateSiteQuery,
} from "../data/sites";
import { timezoneAt } from "../domain/geo/timezone-at";
import { type SystemView, siteLive, toAvailableSystem, toEnhancedSite, toSite } from "../domain/sites";
import { conflict, notFound } from "../lib/errors";
import { fleetStoreOf } from "../lib/fleet-store";
import { newId } from "../lib/ids";
import { auditEntry, auditEntryIf } from "./audit";
import { authorizeOrgAction } from "./authorization";
import type { OrgContext, UserContext } from "./context";

/** D1's systems joined with their live values, read from the fleet store in one call. */
export async function withLive(org: OrgContext, records: Promise<SystemRecord[]>): Promise<SystemView[]> {
  const systems = await records;
  if (systems.length === 0) return [];
  const live = new Map(
    (
      await fleetStoreOf(org).liveValues(
        org.user.orgId,
        systems.map((s) => s.id),
      )
    ).map((v) => [v.systemId, v]),
  );
  return systems.map((s) => {
    const values = live.get(s.id);
    return {
      ...s,
      powerW: values?.powerW ?? null,
      energyTodayWh: values?.energyTodayWh ?? null,
      dataTime: values?.dataTime ?? null,
    };
  });
}

function groupBySite(systems: SystemView[]): Map<string, SystemView[]> {
  const bySite = new Map<string, SystemView[]>();
  for (const system of systems) {
    if (system.siteId === null) continue;
    const list = bySite.get(system.siteId) ?? [];
    list.push(system);
    bySite.set(system.siteId, list);
  }
  return bySite;
}

/** Site rows with their systems and live totals: what the site and portfolio views are built from. */
export async function loadSiteViews(org: OrgContext, rows: SiteRow[]) {
  if (rows.length === 0) return [];
  const systems = await withLive(
    org,
    listSystemsOfSites(
      org.db,
      org.user.orgId,
      rows.map((r) => r.id),
    ),
  );
  const bySite = groupBySite(systems);
  return rows.map((row) => {
    const ofSite = bySite.get(row.id) ?? [];
    return { row, systems: ofSite, live: siteLive(row, ofSite, org.now) };
  });
}

/** The sites of the given ids as full views (sites made from plants, merges and splits answer these). */
export async function enhancedSitesByIds(org: OrgContext, siteIds: string[]): Promise<EnhancedSite[]> {
  if (siteIds.length === 0) return [];
  const [rows, systems] = await Promise.all([
    listSitesByIds(org.db, org.user.orgId, siteIds),
    withLive(org, listSystemsOfSites(org.db, org.user.orgId, siteIds)),
  ]);
  const bySite = groupBySite(systems);
  return rows.map((row) => toEnhancedSite(row, bySite.get(row.id) ?? [], org.now));
}

export async function requireSite(org: OrgContext, siteId: string): Promise<SiteRow> {
  const site = await findSite(org.db, org.user.orgId, siteId);
  if (!site) throw notFound("site", "Site");
  return site;
}

async function enhancedSite(org: OrgContext, site: SiteRow): Promise<EnhancedSite> {
  const systems = await withLive(org, listSystemsOfSites(org.db, org.user.orgId, [site.id]));
  return toEnhancedSite(site, systems, org.now);
}

export const actorOf = (org: OrgContext) => ({
  orgId: org.user.orgId,
  actorId: org.user.id,
  actorEmail: org.user.email,
});

export async function listSites(ctx: UserContext): Promise<Site[]> {
  const org = authorizeOrgAction(ctx, "org:read");
  const [rows, systems] = await Promise.all([
    listSitesQuery(org.db, org.user.orgId),
    withLive(org, listAttachedSystems(org.db, org.user.orgId)),
  ]);
  const bySite = groupBySite(systems);
  return rows.map((row) => {
    const ofSite = bySite.get(row.id) ?? [];
    return toSite(row, ofSite, siteLive(row, ofSite, org.now));
  });
}

export async function listEnhancedSites(ctx: UserContext): Promise<EnhancedSite[]> {
  const org = authorizeOrgAction(ctx, "org:read");
  const [rows, systems] = await Promise.all([
    listSitesQuery(org.db, org.user.orgId),
    withLive(org, listAttachedSystems(org.db, org.user.orgId)),
  ]);
  const bySite = groupBySite(systems);
  return rows.map((row) => toEnhancedSite(row, bySite.get(row.id) ?? [], org.now));
}

export async function getSite(ctx: UserContext, siteId: string): Promise<EnhancedSite> {
  const org = authorizeOrgAction(ctx, "org:read");
  return enhancedSite(org, await requireSite(org, siteId));
}

export async function listAvailableSystems(ctx: UserContext): Promise<AvailableSystem[]> {
  const org = authorizeOrgAction(ctx, "org:read");
  return (await withLive(org, listAvailableSystemsQuery(org.db, org.user.orgId))).map(toAvailableSystem);
}

/** A manual capacity of 0 means none: the site's capacity follows its systems. */
const manualCapacity = (capacity: number | null | undefined) =>
  capacity === undefined ? undefined : capacity === null || capacity === 0 ? null : capacity;

export async function createSite(ctx: UserContext, body: CreateSiteBody): Promise<EnhancedSite> {
  const org = authorizeOrgAction(ctx, "sites:manage");
  const row: SiteRow = {
    id: newId(),
    orgId: org.user.orgId,
    name: body.name,
    address: body.address,
    location: body.location,
    latitude: body.latitude,
    longitude: body.longitude,
    city: body.city,
    state: body.state,
    country: body.country,
    timezone: timezoneAt(body.latitude, body.longitude),
    locationSource: "verified",
    provider: body.provider ?? null,
    capacityKw: manualCapacity(body.capacity) ?? null,
    acLimitKw: body.acLimitKw ?? null,
    tiltDeg: body.tiltDeg ?? null,
    azimuthDeg: body.azimuthDeg ?? null,
    estimatedYieldKwh: body.estimatedYield ?? null,
    isActive: body.isActive ?? true,
    label: body.label ?? null,
    createdAt: org.now,
    updatedAt: org.now,
  };
  await org.db.batch([
    insertSite(org.db, row),
    auditEntry(org, {
      ...actorOf(org),
      action: "site.create",
      targetType: "site",
      targetId: row.id,
      details: { name: row.name, latitude: row.latitude, longitude: row.longitude },
    }),
  ]);
  return toEnhancedSite(row, [], org.now);
}

/** The columns an update sets: only the fields the body names. */
function siteChanges(site: SiteRow, body: UpdateSiteBody): SiteUpdate {
  const changes: SiteUpdate = {};
  if (body.name !== undefined) changes.name = body.name;
  if (body.address !== undefined) changes.address = body.address;
  if (body.location !== undefined) changes.location = body.location;
  if (body.city !== undefined) changes.city = body.city;
  if (body.state !== undefined) changes.state = body.state;
  if (body.country !== undefined) changes.country = body.country;
  if (body.provider !== undefined) changes.provider = body.provider;
  if (body.capacity !== undefined) changes.capacityKw = manualCapacity(body.capacity);
  if (body.acLimitKw !== undefined) changes.acLimitKw = body.acLimitKw;
  if (body.tiltDeg !== undefined) changes.tiltDeg = body.tiltDeg;
  if (body.azimuthDeg !== undefined) changes.azimuthDeg = body.azimuthDeg;
  if (body.estimatedYield !== undefined) changes.estimatedYieldKwh = body.estimatedYield;
  if (body.isActive !== undefined) changes.isActive = body.isActive;
  if (body.label !== undefined) changes.label = body.label;
  if (body.latitude !== undefined || body.longitude !== undefined) {
    changes.latitude = body.latitude ?? site.latitude;
    changes.longitude = body.longitude ?? site.longitude;
    changes.timezone = timezoneAt(changes.latitude, changes.longitude);
    changes.locationSource = "verified";
  }
  return changes;
}

export async function updateSite(
  ctx: UserContext,
  siteId: string,
  body: UpdateSiteBody,
): Promise<EnhancedSite> {
  const org = authorizeOrgAction(ctx, "sites:manage");
  const site = await requireSite(org, siteId);
  const changes = siteChanges(site, body);
  const updated: SiteRow = { ...site, ...changes, updatedAt: org.now };
  await org.db.batch([
    updateSiteQuery(org.db, org.user.orgId, site.id, { ...changes, updatedAt: org.now }),
    auditEntry(org, {
      ...actorOf(org),
      action: "site.update",
      targetType: "site",
      targetId: site.id,
      details: { name: updated.name, fields: Object.keys(changes) },
    }),
  ]);
  return enhancedSite(org, updated);
}

/** Deletes a site; its systems return to the available list and it leaves every portfolio. */
export async function deleteSite(ctx: UserContext, siteId: string): Promise<SiteDeleted> {
  const org = authorizeOrgAction(ctx, "sites:manage");
  const site = await requireSite(org, siteId);
  const systems = await withLive(org, listSystemsOfSites(org.db, org.user.orgId, [site.id]));
  // Released and unlinked explicitly: the column added to monitoring_systems by ALTER TABLE
  // carries no ON DELETE action in SQLite.
  await org.db.batch([
    releaseSiteSystems(org.db, org.user.orgId, site.id),
    removeSiteFromPortfolios(org.db, org.user.orgId, site.id),
    deleteSiteQuery(org.db, org.user.orgId, site.id),
    auditEntry(org, {
      ...actorOf(org),
      action: "site.delete",
      targetType: "site",
      targetId: site.id,
      details: { name: site.name, releasedSystemIds: systems.map((s) => s.id) },
    }),
  ]);
  return { message: `Site ${site.name} deleted`, releasedSystemIds: systems.map((s) => s.id) };
}

async function requireSystem(org: OrgContext, body: AttachSystemBody) {
  const system =
    body.systemId !== undefined
      ? await findSystem(org.db, org.user.orgId, body.systemId)
      : await findSystemByProviderId(
          org.db,
          org.user.orgId,
          body.provider as ProviderId,
          body.providerId ?? "",
        );
  if (!system) {
    const named =
      body.systemId !== undefined
        ? { systemId: body.systemId }
        : { provider: body.provider, providerId: body.providerId };
    throw notFound("system", "Monitoring system", {
      ...named,
      message: "No synced monitoring system of your organisation has this id. Sync the provider first.",
    });
  }
  return system;
}

const alreadyAttached = (otherSiteId: string) =>
  conflict("system_attached", "This system is already attached to another site", { siteId: otherSiteId });

export async function attachSystem(
  ctx: UserContext,
  siteId: string,
  body: AttachSystemBody,
): Promise<SystemAttached> {
  const org = authorizeOrgAction(ctx, "sites:manage");
  const site = await requireSite(org, siteId);
  const system = await requireSystem(org, body);
  const answer = async (attached: boolean): Promise<SystemAttached> => {
    const view = await enhancedSite(org, site);
    const attachedSystem = view.systems.find((s) => s.id === system.id);
    if (!attachedSystem) throw alreadyAttached(system.siteId ?? "");
    return {
      message: attached
        ? `${system.name} added to ${site.name}`
        : `${system.name} is already part of ${site.name}`,
      attached,
      system: attachedSystem,
      site: view,
    };
  };
  if (system.siteId === site.id) return answer(false);
  if (system.siteId !== null) throw alreadyAttached(system.siteId);
  const [result] = await org.db.batch([
    attachSystemQuery(org.db, org.user.orgId, site.id, system.id),
    auditEntryIf(
      org,
      {
        ...actorOf(org),
        action: "site.system_attach",
        targetType: "site",
        targetId: site.id,
        details: { systemId: system.id, provider: system.provider, providerId: system.providerSystemId },
      },
      systemAttachedTo(org.user.orgId, system.id, site.id),
    ),
  ]);
  if (result.meta.changes === 0) {
    // Another request moved the system or deleted the site meanwhile.
    const now = await findSystem(org.db, org.user.orgId, system.id);
    if (now?.siteId === site.id) return answer(false);
    if (now?.siteId) throw alreadyAttached(now.siteId);
    throw notFound("site", "Site");
  }
  return answer(true);
}

export async function detachSystem(
  ctx: UserContext,
  siteId: string,
  systemId: string,
): Promise<{ message: string; site: EnhancedSite }> {
  const org = authorizeOrgAction(ctx, "sites:manage");
  const site = await requireSite(org, siteId);
  const system = await findSystem(org.db, org.user.orgId, systemId);
  if (!system || system.siteId !== site.id) {
    throw notFound("system", "Monitoring system", {
      systemId,
      message: "This system is not attached to this site",
    });
  }
  await org.db.batch([
    detachSystemQuery(org.db, org.user.orgId, site.id, system.id),
    auditEntry(org, {
      ...actorOf(org),
      action: "site.system_detach",
      targetType: "site",
      targetId: site.id,
      details: { systemId: system.id, provider: system.provider, providerId: system.providerSystemId },
    }),
  ]);
  return { message: `${system.name} removed from ${site.name}`, site: await enhancedSite(org, site) };
}
