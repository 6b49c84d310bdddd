import type { OrgSettings, UpdateOrgSettingsBody } from "../../schema/api/organization";
import type {
  MergeSitesBody,
  plantSkipReasons,
  SitesFromSystems,
  SitesFromSystemsBody,
  SplitSite,
  SplitSiteBody,
} from "../../schema/api/sites";
import type { SiteLocationSource } from "../../schema/domain";
import {
  listFreePlants,
  listPlantsAwaitingGeocode,
  markPlantsOffered,
  type PlantRecord,
  type PlantSite,
  plantSiteStatements,
  readOrgSettings,
  updateOrgSettings as updateOrgSettingsQuery,
  vendorPlace,
} from "../data/plant-sites";
import { removeSiteFromPortfolios } from "../data/portfolios";
import { deleteSite, listSystemsOfSites, moveSiteSystems, releaseSystems } from "../data/sites";
import { timezoneAt } from "../domain/geo/timezone-at";
import type { Env } from "../env";
import { type BatchStatement, createDb, runBatch } from "../lib/db";
import { ApiError, invalidInput, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { auditEntry } from "./audit";
import { authorizeOrgAction } from "./authorization";
import type { ServiceContext, UserContext } from "./context";
import { type GeocodeCaller, geocodeBest, geocodeCallerOf } from "./geocode";
import { actorOf, enhancedSitesByIds, requireSite } from "./sites";

type SkipReason = (typeof plantSkipReasons)[number];

/**
 * The place a plant's site takes: its coordinates, else its address geocoded (charged to
 * `caller`'s share of the geocoder); else why not.
 */
async function placeOf(
  ctx: ServiceContext,
  plant: PlantRecord,
  caller: GeocodeCaller,
): Promise<PlantSite | SkipReason> {
  if (plant.latitude !== null && plant.longitude !== null) {
    return vendorPlace(
      plant.provider,
      plant.providerSystemId,
      plant.latitude,
      plant.longitude,
      plant.timezone,
    );
  }
  const address = plant.address?.trim();
  if (!address) return "no_location";
  let found: Awaited<ReturnType<typeof geocodeBest>>;
  try {
    found = await geocodeBest(ctx, caller, address);
  } catch (error) {
    // Busy (the one-call-per-second queue is full), over the organisation's share of it, or the
    // geocoder failed: worth another try later.
    if (error instanceof ApiError) return "geocoder_unavailable";
    throw error;
  }
  if (!found) return "address_not_found";
  const source: SiteLocationSource = "geocoded";
  return {
    provider: plant.provider,
    providerSystemId: plant.providerSystemId,
    siteId: newId(),
    latitude: found.latitude,
    longitude: found.longitude,
    timezone: timezoneAt(found.latitude, found.longitude),
    source,
    address,
    location: found.formattedAddress,
    city: found.city,
    state: found.state,
    country: found.country,
  };
}

/** `POST /api/sites/from-systems`: a site for each given plant (or every free one) that has a place. */
export async function createSitesFromSystems(
  ctx: UserContext,
  body: SitesFromSystemsBody,
): Promise<SitesFromSystems> {
  const org = authorizeOrgAction(ctx, "sites:manage");
  const requested = body.systemIds ? [...new Set(body.systemIds)] : undefined;
  const plants = await listFreePlants(org.db, org.user.orgId, requested);
  const free = new Set(plants.map((p) => p.id));
  const skipped: SitesFromSystems["skipped"] = (requested ?? [])
    .filter((id) => !free.has(id))
    .map((systemId) => ({ systemId, reason: "not_available" }));
  const places: PlantSite[] = [];
  for (const plant of plants) {
    const place = await placeOf(org, plant, geocodeCallerOf(org));
    if (typeof place === "string") skipped.push({ systemId: plant.id, reason: place });
    else places.push(place);
  }
  if (places.length > 0) {
    await runBatch(
      org.db,
      plantSiteStatements(org.db, places, {
        orgId: org.user.orgId,
        now: org.now,
        automatic: false,
        actorId: org.user.id,
        actorEmail: org.user.email,
      }),
    );
  }
  // A plant taken by another request meanwhile has no site of these ids: only made ones answer.
  const sites = await enhancedSitesByIds(
    org,
    places.map((p) => p.siteId),
  );
  return { created: sites.length, sites, skipped };
}

/** Geocodes at most this many plant addresses per maintenance run: one call per second for the whole deployment. */
export const GEOCODE_PLANTS_PER_RUN = 3;

/**
 * The maintenance cron's part: plants with only an address, in organisations whose setting is
 * on, get a site at their geocoded address; a plant whose address finds no place is marked so
 * it is not asked about again. A busy or failing geocoder leaves the plant for the next run.
 */
export async function geocodeAwaitingPlants({ env, now }: { env: Env; now: number }) {
  const db = createDb(env.DB);
  const ctx: ServiceContext = { db, env, now, ip: null, origin: env.APP_URL || "https://sunfleet.invalid" };
  const plants = await listPlantsAwaitingGeocode(db, GEOCODE_PLANTS_PER_RUN);
  let created = 0;
  let notFound = 0;
  /** The places (latitude, longitude) of the sites made: their weather is wanted at once. */
  const places: { latitude: number; longitude: number }[] = [];
  for (const plant of plants) {
    const place = await placeOf(ctx, plant, "plant-sites");
    if (place === "address_not_found" || place === "no_location") {
      await markPlantsOffered(db, plant.orgId, [plant.id], now);
      notFound++;
      continue;
    }
    if (typeof place === "string") break;
    const [inserted] = await runBatch(
      db,
      plantSiteStatements(db, [place], {
        orgId: plant.orgId,
        now,
        automatic: true,
        actorId: null,
        actorEmail: null,
      }),
    );
    const made = inserted?.meta.changes ?? 0;
    created += made;
    if (made > 0) places.push({ latitude: place.latitude, longitude: place.longitude });
  }
  return { created, notFound, places };
}

export async function getOrgSettings(ctx: UserContext): Promise<OrgSettings> {
  const org = authorizeOrgAction(ctx, "org:read");
  const row = await readOrgSettings(org.db, org.user.orgId);
  if (!row) throw notFound("organisation", "Organisation");
  return { autoCreateSites: row.autoCreateSites };
}

export async function updateOrgSettings(ctx: UserContext, body: UpdateOrgSettingsBody): Promise<OrgSettings> {
  const org = authorizeOrgAction(ctx, "settings:manage");
  await org.db.batch([
    updateOrgSettingsQuery(org.db, org.user.orgId, body),
    auditEntry(org, {
      ...actorOf(org),
      action: "organization.settings_update",
      targetType: "organization",
      targetId: org.user.orgId,
      details: { ...body },
    }),
  ]);
  return getOrgSettings(ctx);
}

/** Moves the systems of the listed sites into the target site and removes the listed sites. */
export async function mergeSites(ctx: UserContext, siteId: string, body: MergeSitesBody) {
  const org = authorizeOrgAction(ctx, "sites:manage");
  const target = await requireSite(org, siteId);
  const sourceIds = [...new Set(body.siteIds)];
  if (sourceIds.includes(target.id)) {
    throw invalidInput("Invalid input", [
      { path: ["siteIds"], message: "A site cannot be merged into itself" },
    ]);
  }
  const sources = await enhancedSitesByIds(org, sourceIds);
  if (sources.length !== sourceIds.length) throw notFound("site", "Site");
  const statements: BatchStatement[] = [];
  for (const source of sources) {
    statements.push(
      moveSiteSystems(org.db, org.user.orgId, source.id, target.id),
      removeSiteFromPortfolios(org.db, org.user.orgId, source.id),
      deleteSite(org.db, org.user.orgId, source.id),
    );
  }
  statements.push(
    auditEntry(org, {
      ...actorOf(org),
      action: "site.merge",
      targetType: "site",
      targetId: target.id,
      details: {
        mergedSiteIds: sources.map((s) => s.id),
        movedSystemIds: sources.flatMap((s) => s.systems.map((system) => system.id)),
      },
    }),
  );
  await runBatch(org.db, statements);
  const [site] = await enhancedSitesByIds(org, [target.id]);
  if (!site) throw notFound("site", "Site");
  return site;
}

/**
 * Gives each listed system a site of its own: at the plant's coordinates when it has them, else
 * at the site's own place. The original site keeps the systems not listed.
 */
export async function splitSite(ctx: UserContext, siteId: string, body: SplitSiteBody): Promise<SplitSite> {
  const org = authorizeOrgAction(ctx, "sites:manage");
  const site = await requireSite(org, siteId);
  const systems = await listSystemsOfSites(org.db, org.user.orgId, [site.id]);
  const chosen = body.systemIds ? [...new Set(body.systemIds)] : systems.slice(1).map((s) => s.id);
  const byId = new Map(systems.map((s) => [s.id, s]));
  const foreign = chosen.filter((id) => !byId.has(id));
  if (foreign.length > 0) {
    throw notFound("system", "Monitoring system", {
      systemIds: foreign,
      message: "These systems are not attached to this site",
    });
  }
  if (chosen.length === 0) {
    throw invalidInput("Invalid input", [{ path: ["systemIds"], message: "The site has only one system" }]);
  }
  const places = chosen.map((id): PlantSite => {
    const system = byId.get(id);
    if (!system) throw notFound("system", "Monitoring system");
    if (system.latitude !== null && system.longitude !== null) {
      return vendorPlace(system.provider, system.providerSystemId, system.latitude, system.longitude, null);
    }
    return {
      provider: system.provider,
      providerSystemId: system.providerSystemId,
      siteId: newId(),
      latitude: site.latitude,
      longitude: site.longitude,
      timezone: site.timezone,
      source: site.locationSource,
      address: site.address,
      location: site.location,
      city: site.city,
      state: site.state,
      country: site.country,
    };
  });
  await runBatch(org.db, [
    releaseSystems(org.db, org.user.orgId, site.id, chosen),
    ...plantSiteStatements(org.db, places, {
      orgId: org.user.orgId,
      now: org.now,
      automatic: false,
      actorId: org.user.id,
      actorEmail: org.user.email,
    }),
    auditEntry(org, {
      ...actorOf(org),
      action: "site.split",
      targetType: "site",
      targetId: site.id,
      details: { systemIds: chosen, newSiteIds: places.map((p) => p.siteId) },
    }),
  ]);
  const [original] = await enhancedSitesByIds(org, [site.id]);
  if (!original) throw notFound("site", "Site");
  return {
    site: original,
    sites: await enhancedSitesByIds(
      org,
      places.map((p) => p.siteId),
    ),
  };
}
