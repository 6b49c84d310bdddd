import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { OrganizationTariffs, SiteTariffs } from "../../../schema/api/tariffs";
import { loadTariffBook, pricesForSite } from "../../../worker/data/tariffs";
import { createDb } from "../../../worker/lib/db";
import { createSite } from "../fleet-helpers";
import {
  auditLog,
  call,
  createOrg,
  entriesFor,
  expectError,
  expectStatus,
  putOrgTariff,
  type TestOrg,
  type TestUser,
} from "../helpers";

let orgA: TestOrg;
let orgB: TestOrg;

const db = () => createDb(env.DB);

const putSiteTariff = (actor: TestUser, siteId: string, body: unknown) =>
  call(`/api/sites/${siteId}/tariff`, { method: "PUT", token: actor.token, body });
const siteTariffs = async (actor: TestUser, siteId: string) =>
  expectStatus<SiteTariffs>(await call(`/api/sites/${siteId}/tariffs`, { token: actor.token }), 200);

/** Every stored price row of an organisation, to show a refused request changed none. */
async function storedPrices(orgId: string) {
  const sites = await env.DB.prepare(
    "SELECT site_id, currency, price_per_kwh, valid_from, updated_at FROM site_tariffs WHERE org_id = ? ORDER BY site_id, valid_from",
  )
    .bind(orgId)
    .all();
  const org = await env.DB.prepare(
    "SELECT currency, price_per_kwh, valid_from, updated_at FROM org_tariffs WHERE org_id = ? ORDER BY valid_from",
  )
    .bind(orgId)
    .all();
  return { sites: sites.results, org: org.results };
}

const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  orgA = await createOrg("Tariff A");
  orgB = await createOrg("Tariff B");
});

describe("a site's tariffs", () => {
  it("starts without a price, and the first price set without a day holds for every day", async () => {
    const site = await createSite(orgA.owner, { name: "First price" });
    expect(await siteTariffs(orgA.user, site.id)).toEqual({
      siteId: site.id,
      timezone: "Europe/Amsterdam",
      tariffs: [],
      organizationTariffs: [],
      current: null,
    });
    const set = await expectStatus<SiteTariffs>(
      await putSiteTariff(orgA.engineer, site.id, { currency: "eur", pricePerKwh: "0.25" }),
      200,
    );
    expect(set.tariffs).toEqual([
      { currency: "EUR", pricePerKwh: 0.25, validFrom: null, updatedAt: expect.any(String) },
    ]);
    expect(set.current).toMatchObject({ currency: "EUR", pricePerKwh: 0.25, source: "site" });
    const prices = await pricesForSite(db(), orgA.owner.orgId, site.id, "2020-01-01", "2020-01-02");
    expect(prices.map((p) => p.price?.pricePerKwh)).toEqual([0.25, 0.25]);
    expect(entriesFor(await auditLog(orgA.owner), "site.tariff_set")[0]).toMatchObject({
      targetId: site.id,
      details: { currency: "EUR", pricePerKwh: 0.25, validFrom: null },
    });
  });

  it("keeps earlier days at their price when a dated change comes, and replaces a change of the same day", async () => {
    const site = await createSite(orgA.owner, { name: "Dated" });
    await expectStatus(await putSiteTariff(orgA.owner, site.id, { currency: "EUR", pricePerKwh: 0.2 }), 200);
    await expectStatus(
      await putSiteTariff(orgA.owner, site.id, {
        currency: "EUR",
        pricePerKwh: 0.3,
        validFrom: "2026-03-01",
      }),
      200,
    );
    await expectStatus(
      await putSiteTariff(orgA.owner, site.id, {
        currency: "EUR",
        pricePerKwh: 0.28,
        validFrom: "2026-03-10",
      }),
      200,
    );
    // The same day again: the price is replaced, not added.
    const answer = await expectStatus<SiteTariffs>(
      await putSiteTariff(orgA.owner, site.id, {
        currency: "EUR",
        pricePerKwh: 0.27,
        validFrom: "2026-03-10",
      }),
      200,
    );
    expect(answer.tariffs.map((t) => [t.validFrom, t.pricePerKwh])).toEqual([
      [null, 0.2],
      ["2026-03-01", 0.3],
      ["2026-03-10", 0.27],
    ]);
    const days = await pricesForSite(db(), orgA.owner.orgId, site.id, "2026-02-28", "2026-03-11");
    expect(days).toHaveLength(12);
    const byDay = new Map(days.map((d) => [d.date, d.price?.pricePerKwh]));
    expect(byDay.get("2026-02-28")).toBe(0.2);
    expect(byDay.get("2026-03-01")).toBe(0.3);
    expect(byDay.get("2026-03-09")).toBe(0.3);
    expect(byDay.get("2026-03-10")).toBe(0.27);
    expect(byDay.get("2026-03-11")).toBe(0.27);
  });

  it("dates a later change left undated from today at the site, and null sets the first price again", async () => {
    const site = await createSite(orgA.owner, { name: "Undated change" });
    await expectStatus(await putSiteTariff(orgA.owner, site.id, { currency: "GBP", pricePerKwh: 0.3 }), 200);
    const later = await expectStatus<SiteTariffs>(
      await putSiteTariff(orgA.owner, site.id, { currency: "GBP", pricePerKwh: 0.35 }),
      200,
    );
    // Amsterdam is at most two hours ahead of UTC: its today is UTC's today or tomorrow.
    const dated = later.tariffs[1]?.validFrom ?? "";
    const utcToday = today();
    const utcTomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect([utcToday, utcTomorrow]).toContain(dated);
    expect(later.current).toMatchObject({ pricePerKwh: 0.35, validFrom: dated, source: "site" });
    const first = await expectStatus<SiteTariffs>(
      await putSiteTariff(orgA.owner, site.id, { currency: "GBP", pricePerKwh: 0.31, validFrom: null }),
      200,
    );
    expect(first.tariffs.map((t) => [t.validFrom, t.pricePerKwh])).toEqual([
      [null, 0.31],
      [dated, 0.35],
    ]);
  });

  it("takes the organisation's default on days the site has no price of its own, and again once cleared", async () => {
    const org = await createOrg("Tariff default");
    const site = await createSite(org.owner, { name: "Defaulted" });
    const set = await expectStatus<OrganizationTariffs>(
      await putOrgTariff(org.owner, { currency: "USD", pricePerKwh: 0.15 }),
      200,
    );
    expect(set).toEqual({
      tariffs: [{ currency: "USD", pricePerKwh: 0.15, validFrom: null, updatedAt: expect.any(String) }],
      current: { currency: "USD", pricePerKwh: 0.15, validFrom: null, updatedAt: expect.any(String) },
    });
    await expectStatus(
      await putOrgTariff(org.owner, { currency: "USD", pricePerKwh: 0.18, validFrom: "2026-01-01" }),
      200,
    );
    expect((await siteTariffs(org.user, site.id)).current).toMatchObject({
      currency: "USD",
      pricePerKwh: 0.18,
      source: "organization",
    });
    // The site's own price starts on 2026-02-01: the days before keep the default.
    await expectStatus(
      await putSiteTariff(org.owner, site.id, {
        currency: "EUR",
        pricePerKwh: 0.22,
        validFrom: "2026-02-01",
      }),
      200,
    );
    const days = await pricesForSite(db(), org.owner.orgId, site.id, "2025-12-31", "2026-02-01");
    const byDay = new Map(days.map((d) => [d.date, d.price]));
    expect(byDay.get("2025-12-31")).toMatchObject({
      currency: "USD",
      pricePerKwh: 0.15,
      source: "organization",
    });
    expect(byDay.get("2026-01-31")).toMatchObject({
      currency: "USD",
      pricePerKwh: 0.18,
      source: "organization",
    });
    expect(byDay.get("2026-02-01")).toMatchObject({ currency: "EUR", pricePerKwh: 0.22, source: "site" });
    // A system on no site takes the default; so does every site, read together from one book.
    const book = await loadTariffBook(db(), org.owner.orgId);
    expect(book.priceOn(null, "2026-02-01")).toMatchObject({ currency: "USD", pricePerKwh: 0.18 });
    expect(book.priceOn(site.id, "2026-02-01")).toMatchObject({ currency: "EUR", pricePerKwh: 0.22 });
    expect(book.priceOn("unknown-site", "2026-02-01")).toMatchObject({ source: "organization" });

    const cleared = await expectStatus<SiteTariffs>(
      await call(`/api/sites/${site.id}/tariff`, { method: "DELETE", token: org.engineer.token }),
      200,
    );
    expect(cleared.tariffs).toEqual([]);
    expect(cleared.organizationTariffs).toHaveLength(2);
    expect(cleared.current).toMatchObject({ currency: "USD", source: "organization" });
    expect(entriesFor(await auditLog(org.owner), "site.tariff_clear")).toHaveLength(1);
    expect(entriesFor(await auditLog(org.owner), "organization.tariff_set")).toHaveLength(2);
    expect(
      (
        await expectStatus<OrganizationTariffs>(
          await call("/api/organization/tariffs", { token: org.user.token }),
          200,
        )
      ).tariffs,
    ).toHaveLength(2);
  });

  it("answers no price on days before any price when the first is dated", async () => {
    const org = await createOrg("Tariff dated first");
    const site = await createSite(org.owner, { name: "Dated first" });
    await expectStatus(
      await putSiteTariff(org.owner, site.id, { currency: "CHF", pricePerKwh: 0.3, validFrom: "2026-05-02" }),
      200,
    );
    const days = await pricesForSite(db(), org.owner.orgId, site.id, "2026-05-01", "2026-05-02");
    expect(days).toEqual([
      { date: "2026-05-01", price: null },
      { date: "2026-05-02", price: expect.objectContaining({ currency: "CHF", pricePerKwh: 0.3 }) },
    ]);
  });

  it("goes with its site", async () => {
    const site = await createSite(orgA.owner, { name: "Removed" });
    await expectStatus(await putSiteTariff(orgA.owner, site.id, { currency: "EUR", pricePerKwh: 0.2 }), 200);
    await expectStatus(
      await call(`/api/sites/${site.id}`, { method: "DELETE", token: orgA.owner.token }),
      200,
    );
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM site_tariffs WHERE site_id = ?")
      .bind(site.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});

describe("bad input and other organisations", () => {
  let siteA: { id: string };
  let siteB: { id: string };

  beforeAll(async () => {
    siteA = await createSite(orgA.owner, { name: "Guarded" });
    siteB = await createSite(orgB.owner, { name: "B's" });
    await expectStatus(await putSiteTariff(orgA.owner, siteA.id, { currency: "EUR", pricePerKwh: 0.2 }), 200);
    await expectStatus(await putOrgTariff(orgA.owner, { currency: "EUR", pricePerKwh: 0.19 }), 200);
  });

  it.each([
    ["an unknown currency", { currency: "EURO", pricePerKwh: 0.2 }, ["currency"]],
    ["a currency that is not ISO 4217's", { currency: "XYZ", pricePerKwh: 0.2 }, ["currency"]],
    ["no currency", { pricePerKwh: 0.2 }, ["currency"]],
    ["a negative price", { currency: "EUR", pricePerKwh: -0.01 }, ["pricePerKwh"]],
    ["a price that is not a number", { currency: "EUR", pricePerKwh: "cheap" }, ["pricePerKwh"]],
    [
      "a day that does not exist",
      { currency: "EUR", pricePerKwh: 0.2, validFrom: "2026-02-30" },
      ["validFrom"],
    ],
    [
      "a day in another format",
      { currency: "EUR", pricePerKwh: 0.2, validFrom: "01/03/2026" },
      ["validFrom"],
    ],
    ["an unknown field", { currency: "EUR", pricePerKwh: 0.2, vat: 0.21 }, []],
  ])(
    "refuses %s with 400 validation_failed naming the field, changing nothing",
    async (_case, body, path) => {
      const before = await storedPrices(orgA.owner.orgId);
      for (const response of [
        await putSiteTariff(orgA.owner, siteA.id, body),
        await putOrgTariff(orgA.owner, body),
      ]) {
        const error = await expectError(response, 400);
        expect(error.code).toBe("validation_failed");
        if (path.length > 0 && error.code === "validation_failed") {
          expect(error.details.map((issue) => issue.path)).toContainEqual(path);
        }
      }
      expect(await storedPrices(orgA.owner.orgId)).toEqual(before);
    },
  );

  it("answers 404 for another organisation's site on every tariff route, changing nothing", async () => {
    const before = await storedPrices(orgB.owner.orgId);
    for (const response of [
      await call(`/api/sites/${siteB.id}/tariffs`, { token: orgA.owner.token }),
      await putSiteTariff(orgA.owner, siteB.id, { currency: "EUR", pricePerKwh: 0.5 }),
      await call(`/api/sites/${siteB.id}/tariff`, { method: "DELETE", token: orgA.owner.token }),
      await putSiteTariff(orgA.owner, "no-such-site", { currency: "EUR", pricePerKwh: 0.5 }),
    ]) {
      const error = await expectError(response, 404);
      expect(error).toMatchObject({ code: "not_found", details: { resource: "site" } });
    }
    expect(await storedPrices(orgB.owner.orgId)).toEqual(before);
  });

  it("lets members read prices and only those who manage sites or settings change them", async () => {
    const before = await storedPrices(orgA.owner.orgId);
    await expectStatus(await call(`/api/sites/${siteA.id}/tariffs`, { token: orgA.user.token }), 200);
    await expectStatus(await call("/api/organization/tariffs", { token: orgA.user.token }), 200);
    for (const response of [
      await putSiteTariff(orgA.user, siteA.id, { currency: "EUR", pricePerKwh: 0.5 }),
      await call(`/api/sites/${siteA.id}/tariff`, { method: "DELETE", token: orgA.user.token }),
      await putOrgTariff(orgA.user, { currency: "EUR", pricePerKwh: 0.5 }),
    ]) {
      expect((await expectError(response, 403)).code).toBe("forbidden");
    }
    expect(await storedPrices(orgA.owner.orgId)).toEqual(before);
  });
});
