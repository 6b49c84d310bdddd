import { and, asc, eq } from "drizzle-orm";
import { portfolioSites, portfolios } from "../../schema/tables";
import type { Db } from "../lib/db";

export type PortfolioInsert = typeof portfolios.$inferInsert;
export type PortfolioUpdate = Partial<
  Pick<PortfolioInsert, "name" | "nameKey" | "description" | "updatedAt">
>;

export const listPortfolios = (db: Db, orgId: string) =>
  db
    .select()
    .from(portfolios)
    .where(eq(portfolios.orgId, orgId))
    .orderBy(asc(portfolios.nameKey), asc(portfolios.id));

export const findPortfolio = (db: Db, orgId: string, portfolioId: string) =>
  db.query.portfolios.findFirst({ where: and(eq(portfolios.orgId, orgId), eq(portfolios.id, portfolioId)) });

export const findPortfolioByNameKey = (db: Db, orgId: string, nameKey: string) =>
  db.query.portfolios.findFirst({ where: and(eq(portfolios.orgId, orgId), eq(portfolios.nameKey, nameKey)) });

/** Every (portfolio, site) pair of the organisation. */
export const listPortfolioSiteLinks = (db: Db, orgId: string) =>
  db
    .select({ portfolioId: portfolioSites.portfolioId, siteId: portfolioSites.siteId })
    .from(portfolioSites)
    .where(eq(portfolioSites.orgId, orgId));

export const listPortfolioSiteIds = async (db: Db, orgId: string, portfolioId: string) =>
  (
    await db
      .select({ siteId: portfolioSites.siteId })
      .from(portfolioSites)
      .where(and(eq(portfolioSites.orgId, orgId), eq(portfolioSites.portfolioId, portfolioId)))
  ).map((row) => row.siteId);

export const insertPortfolio = (db: Db, row: PortfolioInsert) => db.insert(portfolios).values(row);

export const updatePortfolio = (db: Db, orgId: string, portfolioId: string, values: PortfolioUpdate) =>
  db
    .update(portfolios)
    .set(values)
    .where(and(eq(portfolios.orgId, orgId), eq(portfolios.id, portfolioId)));

/** Its site links go with it (ON DELETE CASCADE). */
export const deletePortfolio = (db: Db, orgId: string, portfolioId: string) =>
  db.delete(portfolios).where(and(eq(portfolios.orgId, orgId), eq(portfolios.id, portfolioId)));

/**
 * Adds sites to a portfolio in one statement: only sites and a portfolio of the organisation
 * qualify, and a site already in the portfolio is left as it is (idempotent).
 */
export const addPortfolioSites = (
  db: Db,
  orgId: string,
  portfolioId: string,
  siteIds: string[],
  now: number,
) =>
  db.$client
    .prepare(
      `INSERT INTO portfolio_sites (portfolio_id, site_id, org_id, added_at)
       SELECT p.id, s.id, s.org_id, ?
       FROM sites s JOIN portfolios p ON p.id = ? AND p.org_id = s.org_id
       WHERE s.org_id = ? AND s.id IN (SELECT value FROM json_each(?))
       ON CONFLICT (portfolio_id, site_id) DO NOTHING`,
    )
    .bind(now, portfolioId, orgId, JSON.stringify(siteIds));

export const removePortfolioSite = (db: Db, orgId: string, portfolioId: string, siteId: string) =>
  db
    .delete(portfolioSites)
    .where(
      and(
        eq(portfolioSites.orgId, orgId),
        eq(portfolioSites.portfolioId, portfolioId),
        eq(portfolioSites.siteId, siteId),
      ),
    );

/** Touches the portfolio's updatedAt when its sites change. */
export const touchPortfolio = (db: Db, orgId: string, portfolioId: string, now: number) =>
  db
    .update(portfolios)
    .set({ updatedAt: now })
    .where(and(eq(portfolios.orgId, orgId), eq(portfolios.id, portfolioId)));

/** Takes a site out of every portfolio (batched with the site's deletion). */
export const removeSiteFromPortfolios = (db: Db, orgId: string, siteId: string) =>
  db.delete(portfolioSites).where(and(eq(portfolioSites.orgId, orgId), eq(portfolioSites.siteId, siteId)));
