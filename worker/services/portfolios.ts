import type {
  AddPortfolioSitesBody,
  CreatePortfolioBody,
  Portfolio,
  UpdatePortfolioBody,
} from "../../schema/api/portfolios";
import type { Site } from "../../schema/api/sites";
import type { PortfolioRow } from "../../schema/tables";
import {
  addPortfolioSites as addPortfolioSitesQuery,
  deletePortfolio as deletePortfolioQuery,
  findPortfolio,
  findPortfolioByNameKey,
  insertPortfolio,
  listPortfolioSiteIds,
  listPortfolioSiteLinks,
  listPortfolios as listPortfoliosQuery,
  removePortfolioSite,
  touchPortfolio,
  updatePortfolio as updatePortfolioQuery,
} from "../data/portfolios";
import { listSites as listSiteRows, listSitesByIds } from "../data/sites";
import type { SiteLive } from "../domain/sites";
import { performanceRatio } from "../domain/solar/pv-model";
import { runBatch } from "../lib/db";
import { conflict, notFound } from "../lib/errors";
import { fleetStoreOf } from "../lib/fleet-store";
import { newId } from "../lib/ids";
import { auditEntry } from "./audit";
import { authorizeOrgAction } from "./authorization";
import type { OrgContext, UserContext } from "./context";
import { listSites, loadSiteViews } from "./sites";

/** Names are unique per organisation whatever their case. */
const nameKeyOf = (name: string) => name.toLowerCase();

const duplicateName = (name: string) =>
  conflict("portfolio_name_taken", "A portfolio with this name already exists", { name, field: "name" });

/** Today's energy and its irradiance-based expectation per site, over systems with an expectation. */
type EnergyVsExpected = Map<string, { actualWh: number; expectedWh: number }>;

async function energyVsExpectedBySite(org: OrgContext): Promise<EnergyVsExpected> {
  const bySite = await fleetStoreOf(org).energyVsExpectedBySite(org.user.orgId, org.now, org.orgVersions);
  return new Map(Object.entries(bySite));
}

function toPortfolio(
  row: PortfolioRow,
  siteIds: string[],
  liveBySite: Map<string, SiteLive>,
  energyBySite: EnergyVsExpected,
): Portfolio {
  let capacityKw = 0;
  let currentPowerW = 0;
  let todayEnergyWh = 0;
  let actualWh = 0;
  let expectedWh = 0;
  for (const siteId of siteIds) {
    const energy = energyBySite.get(siteId);
    actualWh += energy?.actualWh ?? 0;
    expectedWh += energy?.expectedWh ?? 0;
    const live = liveBySite.get(siteId);
    if (!live) continue;
    capacityKw += live.capacityKw;
    currentPowerW += live.currentPowerW;
    todayEnergyWh += live.todayEnergyWh;
  }
  return {
    id: row.id,
    name: row.name,
    ...(row.description ? { description: row.description } : {}),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    siteCount: siteIds.length,
    siteIds,
    capacityKw,
    currentPowerW,
    todayEnergyWh,
    performanceRatio: performanceRatio(actualWh, expectedWh),
  };
}

/** Portfolios with their totals: three reads for the whole organisation, summed in memory. */
async function portfolioViews(org: OrgContext, rows: PortfolioRow[]): Promise<Portfolio[]> {
  if (rows.length === 0) return [];
  const [links, siteRows, energyBySite] = await Promise.all([
    listPortfolioSiteLinks(org.db, org.user.orgId),
    listSiteRows(org.db, org.user.orgId),
    energyVsExpectedBySite(org),
  ]);
  const views = await loadSiteViews(org, siteRows);
  const liveBySite = new Map(views.map((v) => [v.row.id, v.live]));
  // Sites in name order, so every portfolio lists its ids the same way the site list does.
  const order = new Map(siteRows.map((site, index) => [site.id, index]));
  const siteIdsOf = new Map<string, string[]>();
  for (const link of links) {
    const ids = siteIdsOf.get(link.portfolioId) ?? [];
    ids.push(link.siteId);
    siteIdsOf.set(link.portfolioId, ids);
  }
  return rows.map((row) => {
    const ids = (siteIdsOf.get(row.id) ?? []).sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    return toPortfolio(row, ids, liveBySite, energyBySite);
  });
}

async function portfolioView(org: OrgContext, row: PortfolioRow): Promise<Portfolio> {
  const [view] = await portfolioViews(org, [row]);
  if (!view) throw notFound("portfolio", "Portfolio");
  return view;
}

async function requirePortfolio(org: OrgContext, portfolioId: string): Promise<PortfolioRow> {
  const portfolio = await findPortfolio(org.db, org.user.orgId, portfolioId);
  if (!portfolio) throw notFound("portfolio", "Portfolio");
  return portfolio;
}

async function requireFreeName(org: OrgContext, name: string, exceptId?: string): Promise<void> {
  const existing = await findPortfolioByNameKey(org.db, org.user.orgId, nameKeyOf(name));
  if (existing && existing.id !== exceptId) throw duplicateName(name);
}

/** The unique index settles a race between two requests creating the same name. */
function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof Error &&
    /UNIQUE constraint failed/i.test(`${error.message} ${String(error.cause ?? "")}`)
  );
}

const actorOf = (org: OrgContext) => ({
  orgId: org.user.orgId,
  actorId: org.user.id,
  actorEmail: org.user.email,
});

export async function listPortfolios(ctx: UserContext): Promise<Portfolio[]> {
  const org = authorizeOrgAction(ctx, "org:read");
  return portfolioViews(org, await listPortfoliosQuery(org.db, org.user.orgId));
}

export async function createPortfolio(ctx: UserContext, body: CreatePortfolioBody): Promise<Portfolio> {
  const org = authorizeOrgAction(ctx, "portfolios:manage");
  await requireFreeName(org, body.name);
  const row: PortfolioRow = {
    id: newId(),
    orgId: org.user.orgId,
    name: body.name,
    nameKey: nameKeyOf(body.name),
    description: body.description,
    createdAt: org.now,
    updatedAt: org.now,
  };
  try {
    await org.db.batch([
      insertPortfolio(org.db, row),
      auditEntry(org, {
        ...actorOf(org),
        action: "portfolio.create",
        targetType: "portfolio",
        targetId: row.id,
        details: { name: row.name },
      }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(body.name);
    throw error;
  }
  return toPortfolio(row, [], new Map(), new Map());
}

export async function updatePortfolio(
  ctx: UserContext,
  portfolioId: string,
  body: UpdatePortfolioBody,
): Promise<Portfolio> {
  const org = authorizeOrgAction(ctx, "portfolios:manage");
  const portfolio = await requirePortfolio(org, portfolioId);
  if (body.name !== undefined) await requireFreeName(org, body.name, portfolio.id);
  const changes = {
    ...(body.name !== undefined ? { name: body.name, nameKey: nameKeyOf(body.name) } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    updatedAt: org.now,
  };
  try {
    await org.db.batch([
      updatePortfolioQuery(org.db, org.user.orgId, portfolio.id, changes),
      auditEntry(org, {
        ...actorOf(org),
        action: "portfolio.update",
        targetType: "portfolio",
        targetId: portfolio.id,
        details: { from: portfolio.name, name: changes.name ?? portfolio.name },
      }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(body.name ?? portfolio.name);
    throw error;
  }
  return portfolioView(org, { ...portfolio, ...changes });
}

export async function deletePortfolio(ctx: UserContext, portfolioId: string): Promise<{ message: string }> {
  const org = authorizeOrgAction(ctx, "portfolios:manage");
  const portfolio = await requirePortfolio(org, portfolioId);
  await org.db.batch([
    deletePortfolioQuery(org.db, org.user.orgId, portfolio.id),
    auditEntry(org, {
      ...actorOf(org),
      action: "portfolio.delete",
      targetType: "portfolio",
      targetId: portfolio.id,
      details: { name: portfolio.name },
    }),
  ]);
  return { message: `Portfolio ${portfolio.name} deleted` };
}

/** A portfolio's sites, in the site list's shape. */
export async function listPortfolioSites(ctx: UserContext, portfolioId: string): Promise<Site[]> {
  const org = authorizeOrgAction(ctx, "org:read");
  const portfolio = await requirePortfolio(org, portfolioId);
  const siteIds = new Set(await listPortfolioSiteIds(org.db, org.user.orgId, portfolio.id));
  if (siteIds.size === 0) return [];
  return (await listSites(org)).filter((site) => siteIds.has(site.id));
}

/** Adds sites (all of the organisation, or nothing is written); a site already in it stays once. */
export async function addPortfolioSites(
  ctx: UserContext,
  portfolioId: string,
  body: AddPortfolioSitesBody,
): Promise<{ message: string; added: number; portfolio: Portfolio }> {
  const org = authorizeOrgAction(ctx, "portfolios:manage");
  const portfolio = await requirePortfolio(org, portfolioId);
  const siteIds = [...new Set(body.siteIds)];
  const found = new Set((await listSitesByIds(org.db, org.user.orgId, siteIds)).map((s) => s.id));
  const missing = siteIds.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw notFound("site", "Site", {
      missingSiteIds: missing,
      message: "Some of these sites do not exist in your organisation; no site was added.",
    });
  }
  const before = new Set(await listPortfolioSiteIds(org.db, org.user.orgId, portfolio.id));
  const added = siteIds.filter((id) => !before.has(id));
  if (added.length > 0) {
    await runBatch(org.db, [
      addPortfolioSitesQuery(org.db, org.user.orgId, portfolio.id, added, org.now),
      touchPortfolio(org.db, org.user.orgId, portfolio.id, org.now),
      auditEntry(org, {
        ...actorOf(org),
        action: "portfolio.sites_add",
        targetType: "portfolio",
        targetId: portfolio.id,
        details: { name: portfolio.name, siteIds: added },
      }),
    ]);
  }
  const view = await portfolioView(org, portfolio);
  const message =
    added.length === 0
      ? `These sites are already in ${portfolio.name}`
      : `${added.length} ${added.length === 1 ? "site" : "sites"} added to ${portfolio.name}`;
  return { message, added: added.length, portfolio: view };
}

export async function removeSiteFromPortfolio(
  ctx: UserContext,
  portfolioId: string,
  siteId: string,
): Promise<{ message: string; portfolio: Portfolio }> {
  const org = authorizeOrgAction(ctx, "portfolios:manage");
  const portfolio = await requirePortfolio(org, portfolioId);
  const siteIds = await listPortfolioSiteIds(org.db, org.user.orgId, portfolio.id);
  if (!siteIds.includes(siteId)) {
    throw notFound("site", "Site", { siteId, message: "This site is not in this portfolio" });
  }
  await org.db.batch([
    removePortfolioSite(org.db, org.user.orgId, portfolio.id, siteId),
    touchPortfolio(org.db, org.user.orgId, portfolio.id, org.now),
    auditEntry(org, {
      ...actorOf(org),
      action: "portfolio.site_remove",
      targetType: "portfolio",
      targetId: portfolio.id,
      details: { name: portfolio.name, siteId },
    }),
  ]);
  return { message: `Site removed from ${portfolio.name}`, portfolio: await portfolioView(org, portfolio) };
}
