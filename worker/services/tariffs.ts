import type { OrganizationTariffs, PutTariffBody, SiteTariffs, Tariff } from "../../schema/api/tariffs";
import type { SiteRow } from "../../schema/tables";
import {
  deleteSiteTariffs,
  FIRST_PRICE,
  listOrgTariffs,
  listSiteTariffs,
  priceOn,
  type StoredPrice,
  TariffBook,
  type TariffWrite,
  upsertOrgTariff,
  upsertSiteTariff,
} from "../data/tariffs";
import { localDayOf } from "../domain/energy/local-day";
import { runBatch } from "../lib/db";
import { notFound } from "../lib/errors";
import { auditEntry } from "./audit";
import { authorizeOrgAction } from "./authorization";
import type { OrgContext, UserContext } from "./context";
import { actorOf, requireSite } from "./sites";

const toTariff = (price: StoredPrice): Tariff => ({
  currency: price.currency,
  pricePerKwh: price.pricePerKwh,
  validFrom: price.validFrom === FIRST_PRICE ? null : price.validFrom,
  updatedAt: new Date(price.updatedAt).toISOString(),
});

/**
 * The day a price takes effect: the given day; null, the scope's first price; left out, the
 * first price while the scope has none, else today on the scope's clock.
 */
function effectiveFrom(body: PutTariffBody, existing: readonly StoredPrice[], today: string): string {
  if (body.validFrom === null) return FIRST_PRICE;
  if (body.validFrom !== undefined) return body.validFrom;
  return existing.length === 0 ? FIRST_PRICE : today;
}

const priceWrite = (body: PutTariffBody, validFrom: string): TariffWrite => ({
  currency: body.currency,
  pricePerKwh: body.pricePerKwh,
  validFrom,
});

const todayAt = (org: OrgContext, zone: string) => localDayOf(org.now, zone).date;

async function siteTariffsView(org: OrgContext, site: SiteRow): Promise<SiteTariffs> {
  const [own, organization] = await Promise.all([
    listSiteTariffs(org.db, org.user.orgId, site.id),
    listOrgTariffs(org.db, org.user.orgId),
  ]);
  const current = new TariffBook(organization, new Map([[site.id, own]])).priceOn(
    site.id,
    todayAt(org, site.timezone),
  );
  return {
    siteId: site.id,
    timezone: site.timezone,
    tariffs: own.map(toTariff),
    organizationTariffs: organization.map(toTariff),
    current: current ? { ...toTariff(current), source: current.source } : null,
  };
}

async function organizationTariffsView(org: OrgContext): Promise<OrganizationTariffs> {
  const prices = await listOrgTariffs(org.db, org.user.orgId);
  const current = priceOn(prices, todayAt(org, "UTC"));
  return { tariffs: prices.map(toTariff), current: current ? toTariff(current) : null };
}

export async function getSiteTariffs(ctx: UserContext, siteId: string): Promise<SiteTariffs> {
  const org = authorizeOrgAction(ctx, "org:read");
  return siteTariffsView(org, await requireSite(org, siteId));
}

/** Sets a site's price from a day on; a price of the same day is replaced. */
export async function putSiteTariff(
  ctx: UserContext,
  siteId: string,
  body: PutTariffBody,
): Promise<SiteTariffs> {
  const org = authorizeOrgAction(ctx, "sites:manage");
  const site = await requireSite(org, siteId);
  const existing = await listSiteTariffs(org.db, org.user.orgId, site.id);
  const price = priceWrite(body, effectiveFrom(body, existing, todayAt(org, site.timezone)));
  const [written] = await runBatch(org.db, [
    upsertSiteTariff(org.db, org.user.orgId, site.id, price, org.now),
    auditEntry(org, {
      ...actorOf(org),
      action: "site.tariff_set",
      targetType: "site",
      targetId: site.id,
      details: { ...price, validFrom: price.validFrom || null },
    }),
  ]);
  // The site was removed between the read and the write: the insert found no site.
  if (!written?.meta.changes) throw notFound("site", "Site");
  return siteTariffsView(org, site);
}

/** Removes a site's own prices: it takes the organisation's default again. */
export async function clearSiteTariffs(ctx: UserContext, siteId: string): Promise<SiteTariffs> {
  const org = authorizeOrgAction(ctx, "sites:manage");
  const site = await requireSite(org, siteId);
  await org.db.batch([
    deleteSiteTariffs(org.db, org.user.orgId, site.id),
    auditEntry(org, {
      ...actorOf(org),
      action: "site.tariff_clear",
      targetType: "site",
      targetId: site.id,
    }),
  ]);
  return siteTariffsView(org, site);
}

export async function getOrganizationTariffs(ctx: UserContext): Promise<OrganizationTariffs> {
  return organizationTariffsView(authorizeOrgAction(ctx, "org:read"));
}

/** Sets the organisation's default price from a day on (UTC days when left out). */
export async function putOrganizationTariff(
  ctx: UserContext,
  body: PutTariffBody,
): Promise<OrganizationTariffs> {
  const org = authorizeOrgAction(ctx, "settings:manage");
  const existing = await listOrgTariffs(org.db, org.user.orgId);
  const price = priceWrite(body, effectiveFrom(body, existing, todayAt(org, "UTC")));
  await org.db.batch([
    upsertOrgTariff(org.db, org.user.orgId, price, org.now),
    auditEntry(org, {
      ...actorOf(org),
      action: "organization.tariff_set",
      targetType: "organization",
      targetId: org.user.orgId,
      details: { ...price, validFrom: price.validFrom || null },
    }),
  ]);
  return organizationTariffsView(org);
}
