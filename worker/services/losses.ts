import type {
  LossDay,
  LossesAnswer,
  LossesByCategory,
  LossesQuery,
  LossRankingAnswer,
  LossRankingQuery,
} from "../../schema/api/losses";
import type { CurrencyCode } from "../../schema/currencies";
import { lossCategories } from "../../schema/loss-categories";
import { findPortfolio, listPortfolioSiteIds } from "../data/portfolios";
import { findSite, findSystem, listSystemsOfSites } from "../data/sites";
import { tariffChangeDates } from "../data/tariff-changes";
import { loadTariffBook } from "../data/tariffs";
import { shiftDate } from "../domain/losses/days";
import { answerCurrency, mainCause, priceEnergy, roundMoney, sumValues } from "../domain/losses/money";
import { noLosses } from "../domain/losses/types";
import type { FleetStore } from "../fleet/store";
import { csvHeaders, toCsv } from "../lib/csv";
import { notFound } from "../lib/errors";
import { fleetStoreOf } from "../lib/fleet-store";
import { pageCountOf } from "../lib/paged-answer";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";

/*
 * Losses in kWh and money: the fleet store's daily accounts of the scope's systems, valued with
 * the price in force each day (the site's tariff, else the organisation's default).
 */

/** A row of the store's loss accounts, summed (per site and date, or per site and price period). */
type LossTotalsRow = Omit<
  Awaited<ReturnType<FleetStore["lossesByDate"]>>[number],
  "site_id" | "date" | "systems"
>;

const kwh = (wh: number) => Math.round(wh) / 1000;

const breakdownOf = (row: LossTotalsRow): LossesByCategory => ({
  downtime: row.downtime_wh,
  partialOutage: row.partial_outage_wh,
  clipping: row.clipping_wh,
  soiling: row.soiling_wh,
  underperformance: row.underperformance_wh,
  unmeasured: row.unmeasured_wh,
});

const inKwh = (losses: LossesByCategory): LossesByCategory => ({
  downtime: kwh(losses.downtime),
  partialOutage: kwh(losses.partialOutage),
  clipping: kwh(losses.clipping),
  soiling: kwh(losses.soiling),
  underperformance: kwh(losses.underperformance),
  unmeasured: kwh(losses.unmeasured),
});

const addInto = (total: LossesByCategory, add: LossesByCategory) => {
  for (const category of lossCategories) total[category] += add[category];
};

/**
 * The scope's systems (a site's, a system, a portfolio's sites'; null: every system of the
 * organisation); another organisation's id is not found.
 */
async function scopeSystems(ctx: UserContext, orgId: string, query: LossesQuery): Promise<string[] | null> {
  if (query.systemId !== undefined) {
    const system = await findSystem(ctx.db, orgId, query.systemId);
    if (!system) throw notFound("system", "System");
    return [system.id];
  }
  if (query.siteId === undefined && query.portfolioId === undefined) return null;
  let siteIds: string[];
  if (query.siteId !== undefined) {
    const site = await findSite(ctx.db, orgId, query.siteId);
    if (!site) throw notFound("site", "Site");
    siteIds = [site.id];
  } else {
    const portfolio = await findPortfolio(ctx.db, orgId, query.portfolioId ?? "");
    if (!portfolio) throw notFound("portfolio", "Portfolio");
    siteIds = await listPortfolioSiteIds(ctx.db, orgId, portfolio.id);
  }
  if (siteIds.length === 0) return [];
  return (await listSystemsOfSites(ctx.db, orgId, siteIds)).map((system) => system.id);
}

/** A scope's losses over a period of plant-local days, per day and in total. */
export async function lossesOf(ctx: UserContext, query: LossesQuery): Promise<LossesAnswer> {
  const org = authorizeOrgAction(ctx, "org:read");
  const orgId = org.user.orgId;
  const systemIds = await scopeSystems(ctx, orgId, query);
  const [rows, book] = await Promise.all([
    systemIds !== null && systemIds.length === 0
      ? Promise.resolve([])
      : fleetStoreOf(org).lossesByDate(orgId, systemIds, query.from, query.to),
    loadTariffBook(ctx.db, orgId),
  ]);
  const priced = rows.map((row) => ({ row, price: book.priceOn(row.site_id, row.date) }));
  const currency = answerCurrency(
    book.priceOn(null, query.to),
    priced.map((p) => p.price),
  ) as CurrencyCode | null;

  const byDate = new Map<
    string,
    { expectedWh: number; actualWh: number; losses: LossesByCategory; lostValue: (number | null)[] }
  >();
  const totals = { expectedWh: 0, actualWh: 0, weatherWh: 0, losses: noLosses() };
  const revenue: (number | null)[] = [];
  const lost: (number | null)[] = [];
  for (const { row, price } of priced) {
    const losses = breakdownOf(row);
    const lostWh = row.expected_wh - row.actual_wh;
    const day = byDate.get(row.date) ?? { expectedWh: 0, actualWh: 0, losses: noLosses(), lostValue: [] };
    day.expectedWh += row.expected_wh;
    day.actualWh += row.actual_wh;
    addInto(day.losses, losses);
    const lostValue = priceEnergy(lostWh / 1000, price, currency);
    day.lostValue.push(lostValue);
    byDate.set(row.date, day);
    totals.expectedWh += row.expected_wh;
    totals.actualWh += row.actual_wh;
    totals.weatherWh += row.weather_wh;
    addInto(totals.losses, losses);
    lost.push(lostValue);
    revenue.push(priceEnergy(row.actual_wh / 1000, price, currency));
  }
  const days: LossDay[] = [...byDate.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([date, day]) => ({
      date,
      expectedKwh: kwh(day.expectedWh),
      actualKwh: kwh(day.actualWh),
      lostValue: roundMoney(sumValues(day.lostValue)),
      losses: inKwh(day.losses),
    }));
  return {
    currency,
    from: query.from,
    to: query.to,
    totals: {
      expectedKwh: kwh(totals.expectedWh),
      actualKwh: kwh(totals.actualWh),
      revenue: roundMoney(sumValues(revenue)),
      lostValue: roundMoney(sumValues(lost)),
      weatherKwh: kwh(totals.weatherWh),
      losses: inKwh(totals.losses),
    },
    days,
  };
}

/** The days of an answer as CSV, one row a day, energy in kWh and value in the answer's currency. */
export function lossesCsv(answer: LossesAnswer, query: LossesQuery) {
  const header = [
    "date",
    "expectedKwh",
    "actualKwh",
    ...lossCategories.map((c) => `${c}Kwh`),
    "lostValue",
    "currency",
  ];
  const rows = answer.days.map((day) => [
    day.date,
    day.expectedKwh,
    day.actualKwh,
    ...lossCategories.map((category) => day.losses[category]),
    day.lostValue,
    answer.currency,
  ]);
  const scope = query.siteId ?? query.systemId ?? query.portfolioId ?? "fleet";
  return {
    body: toCsv(header, rows),
    headers: csvHeaders(`losses-${scope}-${query.from}-${query.to}.csv`),
  };
}

/**
 * Every site by what it lost over its last `days` finished plant-local days (each site on its
 * own clock), worst first: lost value, or lost energy where nothing has a price.
 */
export async function lossRanking(
  ctx: UserContext,
  { days, page, pageSize }: LossRankingQuery,
): Promise<LossRankingAnswer> {
  const org = authorizeOrgAction(ctx, "org:read");
  const orgId = org.user.orgId;
  // The days of every zone lie within a day of UTC's: price changes in that span cut the periods.
  const today = new Date(org.now).toISOString().slice(0, 10);
  const [cuts, book] = await Promise.all([
    tariffChangeDates(ctx.db, orgId, shiftDate(today, -days - 2), shiftDate(today, 1)),
    loadTariffBook(ctx.db, orgId),
  ]);
  const rows = await fleetStoreOf(org).lossesBySite(orgId, org.now, days, cuts, org.orgVersions);
  const priced = rows.map((row) => ({ row, price: book.priceOn(row.site_id, row.first_date) }));
  const currency = answerCurrency(
    book.priceOn(null, shiftDate(today, -1)),
    priced.map((p) => p.price),
  ) as CurrencyCode | null;
  const sites = new Map<
    string,
    { name: string; lostWh: number; losses: LossesByCategory; values: (number | null)[] }
  >();
  for (const { row, price } of priced) {
    const site = sites.get(row.site_id) ?? {
      name: row.site_name ?? row.site_id,
      lostWh: 0,
      losses: noLosses(),
      values: [],
    };
    const lostWh = row.expected_wh - row.actual_wh;
    site.lostWh += lostWh;
    addInto(site.losses, breakdownOf(row));
    site.values.push(priceEnergy(lostWh / 1000, price, currency));
    sites.set(row.site_id, site);
  }
  const ranked = [...sites.entries()].map(([siteId, site]) => ({
    siteId,
    name: site.name,
    lostValue: roundMoney(sumValues(site.values)),
    lostKwh: kwh(site.lostWh),
    mainCause: mainCause(site.losses),
  }));
  // Sites that lost energy come first whatever their price (an unpriced site's value is null), so
  // the screen can page through them alone.
  const lostSomething = (site: { lostKwh: number }) => (site.lostKwh > 0 ? 1 : 0);
  ranked.sort(
    (a, b) =>
      lostSomething(b) - lostSomething(a) ||
      (b.lostValue ?? Number.NEGATIVE_INFINITY) - (a.lostValue ?? Number.NEGATIVE_INFINITY) ||
      b.lostKwh - a.lostKwh ||
      a.name.localeCompare(b.name),
  );
  const start = (page - 1) * pageSize;
  return {
    currency,
    total: ranked.length,
    page,
    pageCount: pageCountOf(ranked.length, pageSize),
    sitesWithLoss: ranked.filter((site) => lostSomething(site) === 1).length,
    sites: ranked.slice(start, start + pageSize),
  };
}
