import type { LossesByCategory } from "../../schema/api/losses";
import type { CurrencyCode } from "../../schema/currencies";
import { type LossCategory, lossCategories } from "../../schema/loss-categories";
import { listSitesByIds } from "../data/sites";
import { loadTariffBook } from "../data/tariffs";
import { answerCurrency, mainCause, priceEnergy, roundMoney, sumValues } from "../domain/losses/money";
import { noLosses } from "../domain/losses/types";
import type { Env } from "../env";
import type { Db } from "../lib/db";
import { fleetStoreFor } from "../lib/fleet-store";

/** What repairs and cleaning can win back; clipping is the inverter's design and unmeasured unknown. */
export const RECOVERABLE: readonly LossCategory[] = [
  "downtime",
  "partialOutage",
  "soiling",
  "underperformance",
];

export interface SiteLosses {
  siteId: string;
  siteName: string;
  expectedKwh: number;
  lostKwh: number;
  lostValue: number | null;
  mainCause: LossCategory | null;
}

/** A whole organisation's losses over a period of plant-local days, in kWh and money. */
export interface FleetLosses {
  /** ISO 4217; null when no price is in force for any of the days. */
  currency: CurrencyCode | null;
  from: string;
  to: string;
  expectedKwh: number;
  actualKwh: number;
  /** Expected less actual: every category, a negative underperformance counting against the rest. */
  lostKwh: number;
  /** The recoverable categories' losses, none below 0. */
  recoverableKwh: number;
  lostValue: number | null;
  /** Expected under a clear sky less expected: the weather's share, beside the losses. */
  weatherKwh: number;
  losses: Record<LossCategory, number>;
  /** Sites with an account in the period, by lost value (lost energy without a price), worst first. */
  sites: SiteLosses[];
}

const kwh = (wh: number) => Math.round(wh) / 1000;

/**
 * Every system's daily accounts from `from` to `to` (each on its plant's clock), valued with the
 * price in force each day (the site's tariff, else the organisation's default; one currency per
 * answer, as GET /api/losses values them), summed for the fleet and per site.
 */
export async function fleetLosses(
  deps: { db: Db; env: Env },
  orgId: string,
  from: string,
  to: string,
): Promise<FleetLosses> {
  const [rows, book] = await Promise.all([
    fleetStoreFor(deps.env, orgId).lossesByDate(orgId, null, from, to),
    loadTariffBook(deps.db, orgId),
  ]);
  const siteIds = [...new Set(rows.flatMap((row) => (row.site_id === null ? [] : [row.site_id])))];
  const sites = siteIds.length === 0 ? [] : await listSitesByIds(deps.db, orgId, siteIds);
  const priced = rows.map((row) => ({ row, price: book.priceOn(row.site_id, row.date) }));
  const currency = answerCurrency(
    book.priceOn(null, to),
    priced.map((p) => p.price),
  ) as CurrencyCode | null;
  const names = new Map(sites.map((site) => [site.id, site.name]));
  const totals = {
    expectedWh: 0,
    actualWh: 0,
    weatherWh: 0,
    losses: noLosses(),
    values: [] as (number | null)[],
  };
  const bySite = new Map<
    string,
    { expectedWh: number; lostWh: number; losses: LossesByCategory; values: (number | null)[] }
  >();
  for (const { row, price } of priced) {
    const losses: LossesByCategory = {
      downtime: row.downtime_wh,
      partialOutage: row.partial_outage_wh,
      clipping: row.clipping_wh,
      soiling: row.soiling_wh,
      underperformance: row.underperformance_wh,
      unmeasured: row.unmeasured_wh,
    };
    const lostWh = row.expected_wh - row.actual_wh;
    const value = priceEnergy(lostWh / 1000, price, currency);
    totals.expectedWh += row.expected_wh;
    totals.actualWh += row.actual_wh;
    totals.weatherWh += row.weather_wh;
    totals.values.push(value);
    for (const category of lossCategories) totals.losses[category] += losses[category];
    if (row.site_id === null) continue;
    const site = bySite.get(row.site_id) ?? { expectedWh: 0, lostWh: 0, losses: noLosses(), values: [] };
    site.expectedWh += row.expected_wh;
    site.lostWh += lostWh;
    site.values.push(value);
    for (const category of lossCategories) site.losses[category] += losses[category];
    bySite.set(row.site_id, site);
  }
  const ranked = [...bySite.entries()]
    .map(([siteId, site]) => ({
      siteId,
      siteName: names.get(siteId) ?? siteId,
      expectedKwh: kwh(site.expectedWh),
      lostKwh: kwh(site.lostWh),
      lostValue: roundMoney(sumValues(site.values)),
      mainCause: mainCause(site.losses),
    }))
    .sort(
      (a, b) =>
        (b.lostValue ?? 0) - (a.lostValue ?? 0) ||
        b.lostKwh - a.lostKwh ||
        a.siteName.localeCompare(b.siteName),
    );
  const losses = Object.fromEntries(
    lossCategories.map((category) => [category, kwh(totals.losses[category])]),
  ) as Record<LossCategory, number>;
  return {
    currency,
    from,
    to,
    expectedKwh: kwh(totals.expectedWh),
    actualKwh: kwh(totals.actualWh),
    lostKwh: kwh(totals.expectedWh - totals.actualWh),
    recoverableKwh: kwh(RECOVERABLE.reduce((sum, category) => sum + Math.max(totals.losses[category], 0), 0)),
    lostValue: roundMoney(sumValues(totals.values)),
    weatherKwh: kwh(totals.weatherWh),
    losses,
    sites: ranked,
  };
}
