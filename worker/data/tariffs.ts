import { and, asc, eq, sql } from "drizzle-orm";
import type { CurrencyCode } from "../../schema/currencies";
import { orgTariffs, siteTariffs } from "../../schema/tables";
import type { Db } from "../lib/db";

/** `valid_from` of a scope's first price: it sorts before every YYYY-MM-DD day. */
export const FIRST_PRICE = "";

/** One stored price; `validFrom` is `FIRST_PRICE` for a scope's first. */
export interface StoredPrice {
  currency: CurrencyCode;
  pricePerKwh: number;
  validFrom: string;
  updatedAt: number;
}

export type PriceSource = "site" | "organization";

/** The price in force on a day, and whose it is. */
export interface DayPrice extends StoredPrice {
  source: PriceSource;
}

/** The organisation's default prices, oldest first. */
export const listOrgTariffs = (db: Db, orgId: string): Promise<StoredPrice[]> =>
  db
    .select({
      currency: orgTariffs.currency,
      pricePerKwh: orgTariffs.pricePerKwh,
      validFrom: orgTariffs.validFrom,
      updatedAt: orgTariffs.updatedAt,
    })
    .from(orgTariffs)
    .where(eq(orgTariffs.orgId, orgId))
    .orderBy(asc(orgTariffs.validFrom));

/** A site's own prices, oldest first. */
export const listSiteTariffs = (db: Db, orgId: string, siteId: string): Promise<StoredPrice[]> =>
  db
    .select({
      currency: siteTariffs.currency,
      pricePerKwh: siteTariffs.pricePerKwh,
      validFrom: siteTariffs.validFrom,
      updatedAt: siteTariffs.updatedAt,
    })
    .from(siteTariffs)
    .where(and(eq(siteTariffs.orgId, orgId), eq(siteTariffs.siteId, siteId)))
    .orderBy(asc(siteTariffs.validFrom));

/** Every site's own prices in the organisation, by site, oldest first. */
async function listAllSiteTariffs(
  db: Db,
  orgId: string,
  siteIds?: readonly string[],
): Promise<Map<string, StoredPrice[]>> {
  if (siteIds?.length === 0) return new Map();
  const ofSites = siteIds
    ? sql`${siteTariffs.siteId} IN (SELECT value FROM json_each(${JSON.stringify(siteIds)}))`
    : undefined;
  const rows = await db
    .select({
      siteId: siteTariffs.siteId,
      currency: siteTariffs.currency,
      pricePerKwh: siteTariffs.pricePerKwh,
      validFrom: siteTariffs.validFrom,
      updatedAt: siteTariffs.updatedAt,
    })
    .from(siteTariffs)
    .where(and(eq(siteTariffs.orgId, orgId), ofSites))
    .orderBy(asc(siteTariffs.siteId), asc(siteTariffs.validFrom));
  const bySite = new Map<string, StoredPrice[]>();
  for (const { siteId, ...price } of rows) {
    const list = bySite.get(siteId) ?? [];
    list.push(price);
    bySite.set(siteId, list);
  }
  return bySite;
}

export interface TariffWrite {
  currency: CurrencyCode;
  pricePerKwh: number;
  validFrom: string;
}

/** Sets the organisation's default price of a day (replacing one of the same day). */
export const upsertOrgTariff = (db: Db, orgId: string, price: TariffWrite, now: number) =>
  db
    .insert(orgTariffs)
    .values({ orgId, ...price, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [orgTariffs.orgId, orgTariffs.validFrom],
      set: { currency: price.currency, pricePerKwh: price.pricePerKwh, updatedAt: now },
    });

/**
 * Sets a site's price of a day (replacing one of the same day), only while the site is the
 * organisation's: a site removed meanwhile gets nothing.
 */
export const upsertSiteTariff = (db: Db, orgId: string, siteId: string, price: TariffWrite, now: number) =>
  db.$client
    .prepare(
      `INSERT INTO site_tariffs (site_id, org_id, currency, price_per_kwh, valid_from, created_at, updated_at)
      SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?6
      WHERE EXISTS (SELECT 1 FROM sites WHERE org_id = ?2 AND id = ?1)
      ON CONFLICT (site_id, valid_from) DO UPDATE SET
        currency = excluded.currency, price_per_kwh = excluded.price_per_kwh, updated_at = excluded.updated_at`,
    )
    .bind(siteId, orgId, price.currency, price.pricePerKwh, price.validFrom, now);

/** Removes a site's own prices: it takes the organisation's default again. */
export const deleteSiteTariffs = (db: Db, orgId: string, siteId: string) =>
  db.delete(siteTariffs).where(and(eq(siteTariffs.orgId, orgId), eq(siteTariffs.siteId, siteId)));

/** The price of `prices` (oldest first) in force on `date`: the last from that day or before. */
export function priceOn(prices: readonly StoredPrice[], date: string): StoredPrice | null {
  let found: StoredPrice | null = null;
  for (const price of prices) {
    if (price.validFrom > date) break;
    found = price;
  }
  return found;
}

/**
 * The prices of an organisation, read once, answering for any of its sites and days: the site's
 * own price in force that day, else the organisation's default in force that day, else none.
 * A system on no site takes the default.
 */
export class TariffBook {
  constructor(
    private readonly organization: readonly StoredPrice[],
    private readonly bySite: ReadonlyMap<string, readonly StoredPrice[]>,
  ) {}

  priceOn(siteId: string | null, date: string): DayPrice | null {
    const own = siteId === null ? null : priceOn(this.bySite.get(siteId) ?? [], date);
    if (own) return { ...own, source: "site" };
    const fallback = priceOn(this.organization, date);
    return fallback ? { ...fallback, source: "organization" } : null;
  }

  /** Whether any price is set at all: without one, no loss has a value. */
  get isEmpty(): boolean {
    return this.organization.length === 0 && this.bySite.size === 0;
  }
}

/**
 * The organisation's prices (two reads), for valuing many sites and days at once: its default
 * and every site's own, or only those of `siteIds` (a page of alerts reads its own sites' prices,
 * not the whole fleet's).
 */
export async function loadTariffBook(
  db: Db,
  orgId: string,
  siteIds?: readonly string[],
): Promise<TariffBook> {
  const [organization, bySite] = await Promise.all([
    listOrgTariffs(db, orgId),
    listAllSiteTariffs(db, orgId, siteIds),
  ]);
  return new TariffBook(organization, bySite);
}

/** The YYYY-MM-DD days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= end; at += 86_400_000) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * The price in force for a site (null: a system on no site) on each day from `from` to `to`
 * (YYYY-MM-DD on the site's clock, both included): the site's tariff, else the organisation's
 * default; null on days without either. What the losses computation values energy with.
 */
export async function pricesForSite(
  db: Db,
  orgId: string,
  siteId: string | null,
  from: string,
  to: string,
): Promise<{ date: string; price: DayPrice | null }[]> {
  const [organization, own] = await Promise.all([
    listOrgTariffs(db, orgId),
    siteId === null ? Promise.resolve([]) : listSiteTariffs(db, orgId, siteId),
  ]);
  const book = new TariffBook(organization, siteId === null ? new Map() : new Map([[siteId, own]]));
  return daysBetween(from, to).map((date) => ({ date, price: book.priceOn(siteId, date) }));
}
