import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import {
  type EnhancedSiteListItem,
  type SiteCountsAnswer,
  type SiteGroup,
  type SiteListItem,
  type SiteMap,
  siteCountsAnswerSchema,
  siteGroupSchema,
  siteListItemSchema,
  siteMapSchema,
} from "../../../schema/api/site-lists";
import type { AvailableSystem } from "../../../schema/api/sites";
import { call, expectStatus, registerOwner, type TestUser } from "../helpers";
import { plantId, plantName, seedSiteFleet } from "../site-fleet";

/*
 * The site lists at fleet size, through HTTP: an organisation of 2,500 sites made by the sync's
 * page write, read a page at a time, searched, filtered, sorted, counted, grouped and mapped.
 */

const SITES = 2_500;
let owner: TestUser;

const get = (path: string, headers: Record<string, string> = {}) =>
  call(path, { token: owner.token, headers });
const json = async <T>(path: string) => expectStatus<T>(await get(path), 200);

/** The `rel` links of a Link header, by rel. */
function links(res: Response): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [, url, rel] of (res.headers.get("Link") ?? "").matchAll(/<([^>]+)>; rel="(\w+)"/g)) {
    if (rel && url) found[rel] = url;
  }
  return found;
}

beforeAll(async () => {
  owner = await registerOwner("Fleet of Sites");
  await seedSiteFleet(owner, SITES);
}, 240_000);

describe("the site list at fleet size", () => {
  it("answers the client's unpaged call with the first 1,000 sites in name order, and the rest behind Link", async () => {
    const first = await get("/api/sites");
    const page1 = await expectStatus<SiteListItem[]>(first, 200);
    expect(page1).toHaveLength(1_000);
    expect(first.headers.get("X-Total-Count")).toBe(String(SITES));
    const rel = links(first);
    expect(rel).toMatchObject({
      first: "/api/sites?page=1",
      next: "/api/sites?page=2",
      last: "/api/sites?page=3",
    });
    // As stored: by name, then id.
    const names = page1.map((site) => site.name);
    expect(names).toEqual([...names].sort());
    expect(page1[0]?.name).toBe(plantName(0));
    for (const site of page1.slice(0, 5)) siteListItemSchema.parse(site);

    const ids = new Set(page1.map((site) => site.id));
    for (const next of [rel.next, "/api/sites?page=3"]) {
      const page = await json<SiteListItem[]>(next as string);
      for (const site of page) ids.add(site.id);
    }
    expect(ids.size).toBe(SITES);
    expect(await json<SiteListItem[]>("/api/sites?page=4")).toEqual([]);
  });

  it("sorts worst first by PR, power, energy or open alerts, each a total order across pages", async () => {
    const byPower = await json<SiteListItem[]>("/api/sites?sort=power&pageSize=200");
    expect(byPower).toHaveLength(200);
    const powers = byPower.map((site) => site.currentPower);
    expect(powers).toEqual([...powers].sort((a, b) => a - b));
    const nextPower = await json<SiteListItem[]>("/api/sites?sort=power&pageSize=200&page=2");
    expect(nextPower[0]?.currentPower).toBeGreaterThanOrEqual(powers.at(-1) ?? 0);
    expect(new Set([...byPower, ...nextPower].map((site) => site.id)).size).toBe(400);

    const mostPower = await json<SiteListItem[]>("/api/sites?sort=power&direction=desc&pageSize=5");
    expect(mostPower[0]?.currentPower).toBeGreaterThanOrEqual(mostPower[4]?.currentPower ?? 0);

    const byToday = await json<SiteListItem[]>("/api/sites?sort=today&pageSize=100");
    const today = byToday.map((site) => site.todayGeneration);
    expect(today).toEqual([...today].sort((a, b) => a - b));

    // Without measured irradiance no site has an expectation: PR is null everywhere, then by name.
    const byPr = await json<SiteListItem[]>("/api/sites?sort=pr&pageSize=50");
    expect(byPr).toHaveLength(50);
    const known = byPr.filter((site) => site.performanceRatio !== null);
    const prs = known.map((site) => site.performanceRatio as number);
    expect(prs).toEqual([...prs].sort((a, b) => a - b));
  });

  it("finds a site by name, address or vendor id, on the server", async () => {
    const byName = await get(`/api/sites?q=${encodeURIComponent(plantName(1234))}&pageSize=50`);
    const found = await expectStatus<SiteListItem[]>(byName, 200);
    expect(found.map((site) => site.name)).toEqual([plantName(1234)]);
    expect(byName.headers.get("X-Total-Count")).toBe("1");
    const byVendorId = await json<EnhancedSiteListItem[]>(
      `/api/sites/enhanced?q=${plantId(777).toLowerCase()}`,
    );
    expect(byVendorId).toHaveLength(1);
    expect(byVendorId[0]?.systems.map((system) => system.providerId)).toEqual([plantId(777)]);
    const byCity = await get("/api/sites?q=seville&pageSize=10");
    expect(byCity.headers.get("X-Total-Count")).toBe(String(SITES / 5));
    const none = await get("/api/sites?q=nowhere-at-all");
    expect(await none.json()).toEqual([]);
    expect(none.headers.get("X-Total-Count")).toBe("0");
  });

  it("filters by status and open alerts, and the counts agree with the lists", async () => {
    const counts = siteCountsAnswerSchema.parse(await json<SiteCountsAnswer>("/api/sites/counts"));
    expect(counts.total).toBe(SITES);
    expect(counts.byStatus.online + counts.byStatus.offline + counts.byStatus.fault).toBe(SITES);
    // Every 37th plant reports an alarm.
    expect(counts.byStatus.fault).toBe(Math.ceil(SITES / 37));
    expect(counts.providers).toEqual([{ value: "solis", name: "solis", count: SITES }]);
    for (const status of ["online", "offline", "fault"] as const) {
      const res = await get(`/api/sites?status=${status}&pageSize=20`);
      const page = await expectStatus<SiteListItem[]>(res, 200);
      expect(res.headers.get("X-Total-Count")).toBe(String(counts.byStatus[status]));
      expect(page.every((site) => site.status === status)).toBe(true);
    }
    const faultOrOffline = await get("/api/sites?status=fault,offline&pageSize=1");
    expect(faultOrOffline.headers.get("X-Total-Count")).toBe(
      String(counts.byStatus.fault + counts.byStatus.offline),
    );
    // A filter's own counts still offer the other values.
    const onlyFaults = await json<SiteCountsAnswer>("/api/sites/counts?status=fault");
    expect(onlyFaults.total).toBe(counts.byStatus.fault);
    expect(onlyFaults.byStatus).toEqual(counts.byStatus);

    // Detection found the plants silent for two hours in daylight: their sites have open alerts.
    const before = counts.withOpenAlerts;
    const alertedBefore = await get("/api/sites?alerts=open&pageSize=1000");
    expect(alertedBefore.headers.get("X-Total-Count")).toBe(String(before));
    const listed = (await alertedBefore.json()) as SiteListItem[];
    expect(listed.every((site) => site.openAlerts > 0)).toBe(true);

    // One more open alert, on a plant without one: its site joins the list at once, first by alerts.
    const [target] = await json<EnhancedSiteListItem[]>(`/api/sites/enhanced?q=${plantId(43)}`);
    expect(target?.openAlerts).toBe(0);
    const systemId = target?.systems[0]?.id as string;
    for (const rule of ["no_data", "no_production"]) {
      await env.DB.prepare(
        `INSERT INTO alerts (id, org_id, system_id, provider, title, message, severity, created_at, rule)
         VALUES (?, ?, ?, 'solis', 'Test alert', 'Test', 'critical', ?, ?)`,
      )
        .bind(crypto.randomUUID(), owner.orgId, systemId, Date.now(), rule)
        .run();
    }
    const withAlerts = await get("/api/sites?alerts=open&pageSize=1000");
    expect(withAlerts.headers.get("X-Total-Count")).toBe(String(before + 1));
    const alerted = await expectStatus<SiteListItem[]>(withAlerts, 200);
    expect(alerted.find((site) => site.id === target?.id)?.openAlerts).toBe(2);
    const mostAlerts = await json<SiteListItem[]>("/api/sites?sort=alerts&pageSize=1");
    expect(mostAlerts[0]?.openAlerts).toBeGreaterThanOrEqual(2);
    expect((await json<SiteCountsAnswer>("/api/sites/counts")).withOpenAlerts).toBe(before + 1);
    const without = await get("/api/sites?alerts=none&pageSize=1");
    expect(without.headers.get("X-Total-Count")).toBe(String(SITES - before - 1));
  });

  it("filters and groups by portfolio, country and label, with each group's totals", async () => {
    // Read before the edits: the counts and groups held for them are not answered after.
    const labelsBefore = await json<SiteGroup[]>("/api/sites/groups?by=label");
    expect(labelsBefore.map((group) => group.name)).not.toContain("Installer Nord");
    expect((await json<SiteCountsAnswer>("/api/sites/counts")).countries.map((c) => c.name)).not.toContain(
      "France",
    );
    const page = await json<SiteListItem[]>(`/api/sites?q=${encodeURIComponent("Lyon")}&pageSize=30`);
    const lyon = page.slice(0, 30);
    for (const [i, site] of lyon.entries()) {
      await expectStatus(
        await call(`/api/sites/${site.id}`, {
          method: "PATCH",
          token: owner.token,
          body: { country: "France", label: i < 10 ? "Installer Nord" : "Client Rhône" },
        }),
        200,
      );
    }
    const portfolio = await expectStatus<{ id: string }>(
      await call("/api/portfolios", { method: "POST", token: owner.token, body: { name: "Lyon roofs" } }),
      201,
    );
    await expectStatus(
      await call(`/api/portfolios/${portfolio.id}/sites`, {
        method: "POST",
        token: owner.token,
        body: { siteIds: lyon.slice(0, 12).map((site) => site.id) },
      }),
      200,
    );

    const inPortfolio = await get(`/api/sites?portfolio=${portfolio.id}&pageSize=100`);
    expect(inPortfolio.headers.get("X-Total-Count")).toBe("12");
    const inFrance = await get("/api/sites?country=france&pageSize=100");
    expect(inFrance.headers.get("X-Total-Count")).toBe("30");
    const labelled = await json<SiteListItem[]>(`/api/sites?label=${encodeURIComponent("Installer Nord")}`);
    expect(labelled).toHaveLength(10);
    expect(labelled.every((site) => site.label === "Installer Nord")).toBe(true);
    expect((await json<SiteCountsAnswer>("/api/sites/counts")).countries).toContainEqual({
      value: "France",
      name: "France",
      count: 30,
    });
    const noCountry = await get("/api/sites?country=-&pageSize=1");
    expect(noCountry.headers.get("X-Total-Count")).toBe(String(SITES - 30));

    const counts = await json<SiteCountsAnswer>("/api/sites/counts?country=France");
    expect(counts.total).toBe(30);
    expect(counts.labels).toEqual([
      { value: "Client Rhône", name: "Client Rhône", count: 20 },
      { value: "Installer Nord", name: "Installer Nord", count: 10 },
    ]);
    expect(counts.portfolios).toEqual([{ value: portfolio.id, name: "Lyon roofs", count: 12 }]);
    // Countries are counted over every other filter: all the organisation's sites.
    expect(counts.countries).toEqual([
      { value: "France", name: "France", count: 30 },
      { value: "-", name: null, count: SITES - 30 },
    ]);

    const byLabel = (await json<SiteGroup[]>("/api/sites/groups?by=label")).map((g) =>
      siteGroupSchema.parse(g),
    );
    expect(byLabel.map((group) => [group.name, group.siteCount])).toEqual([
      ["Client Rhône", 20],
      ["Installer Nord", 10],
      [null, SITES - 30],
    ]);
    const installer = byLabel[1] as SiteGroup;
    const installerSites = labelled;
    expect(installer.powerW).toBeCloseTo(
      installerSites.reduce((sum, site) => sum + site.currentPower, 0),
      6,
    );
    expect(installer.capacityKw).toBeCloseTo(
      installerSites.reduce((sum, site) => sum + site.capacity, 0),
      6,
    );
    expect(installer.byStatus.online + installer.byStatus.offline + installer.byStatus.fault).toBe(10);
    const byPortfolio = await json<SiteGroup[]>("/api/sites/groups?by=portfolio&country=France");
    expect(byPortfolio.map((group) => [group.value, group.siteCount])).toEqual([
      [portfolio.id, 12],
      ["-", 18],
    ]);
    const byCountry = await json<SiteGroup[]>("/api/sites/groups?by=country");
    expect(byCountry.reduce((sum, group) => sum + group.siteCount, 0)).toBe(SITES);
  });

  it("maps every site as a point with its status", async () => {
    const res = await get("/api/sites/map", { "Accept-Encoding": "gzip" });
    const map = siteMapSchema.parse(await expectStatus<SiteMap>(res, 200));
    expect(map.total).toBe(SITES);
    expect(new Set(map.ids).size).toBe(SITES);
    expect(map.latitudes).toHaveLength(SITES);
    expect(map.statuses.filter((status) => status === "fault")).toHaveLength(Math.ceil(SITES / 37));
    const faults = await json<SiteMap>("/api/sites/map?status=fault");
    expect(faults.total).toBe(Math.ceil(SITES / 37));
  });

  it("draws the map again after a site is added and removed (held answers follow the sites)", async () => {
    const before = await json<SiteMap>("/api/sites/map");
    const created = await expectStatus<{ id: string }>(
      await call("/api/sites", {
        method: "POST",
        token: owner.token,
        body: {
          name: "Map test site",
          address: "Dam 1, Amsterdam",
          latitude: 52.3731,
          longitude: 4.8926,
          provider: "solis",
        },
      }),
      201,
    );
    // A client that does not take gzip gets the same map inflated.
    const plain = await get("/api/sites/map", { "Accept-Encoding": "identity" });
    expect(plain.headers.get("Content-Encoding")).toBeNull();
    const withSite = siteMapSchema.parse(await expectStatus<SiteMap>(plain, 200));
    expect(withSite.total).toBe(before.total + 1);
    const at = withSite.ids.indexOf(created.id);
    expect([withSite.latitudes[at], withSite.longitudes[at]]).toEqual([52.3731, 4.8926]);
    await expectStatus(await call(`/api/sites/${created.id}`, { method: "DELETE", token: owner.token }), 200);
    const after = await json<SiteMap>("/api/sites/map");
    expect(after.total).toBe(before.total);
    expect(after.ids).not.toContain(created.id);
  });

  it("tags each page by its content: 304 while it is unchanged, the new page after a change", async () => {
    const path = "/api/sites?sort=name&pageSize=20";
    const first = await get(path);
    const tag = first.headers.get("ETag") ?? "";
    expect(tag).toMatch(/^"[\w-]+"$/);
    const again = await get(path, { "If-None-Match": tag });
    expect(again.status).toBe(304);
    expect(again.headers.get("X-Total-Count")).toBe(String(SITES));
    const [site] = (await first.json()) as SiteListItem[];
    await expectStatus(
      await call(`/api/sites/${site?.id}`, {
        method: "PATCH",
        token: owner.token,
        body: { label: "Renamed" },
      }),
      200,
    );
    const changed = await get(path, { "If-None-Match": tag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(tag);
  });

  it("refuses unknown filters and sorts with 400", async () => {
    for (const query of [
      "status=broken",
      "sort=colour",
      "pageSize=5000",
      "provider=acme",
      "alerts=maybe",
      "x=1",
    ]) {
      expect((await get(`/api/sites?${query}`)).status).toBe(400);
    }
    expect((await get("/api/sites/groups")).status).toBe(400);
  });
});

describe("the other lists at fleet size", () => {
  it("pages the analytics records and the available systems", async () => {
    const res = await get("/api/analytics?system=all&pageSize=25&sort=power");
    const records = await expectStatus<AnalyticsRecord[]>(res, 200);
    expect(records).toHaveLength(25);
    expect(res.headers.get("X-Total-Count")).toBe(String(SITES));
    const powers = records.map((record) => record.currentPowerW);
    expect(powers).toEqual([...powers].sort((a, b) => a - b));
    const unpaged = await get("/api/analytics?system=all");
    expect(((await unpaged.json()) as unknown[]).length).toBe(1_000);
    expect(links(unpaged).next).toBe("/api/analytics?system=all&page=2");
    const found = await json<AnalyticsRecord[]>(`/api/analytics?system=all&q=${plantId(2001)}`);
    expect(found.map((record) => record.providerId)).toEqual([plantId(2001)]);
    const faults = await get("/api/analytics?system=all&status=fault&pageSize=1");
    expect(faults.headers.get("X-Total-Count")).toBe(String(Math.ceil(SITES / 37)));

    // Every plant has its site: none is available.
    const available = await get("/api/available-systems");
    expect(await expectStatus<AvailableSystem[]>(available, 200)).toEqual([]);
    expect(available.headers.get("X-Total-Count")).toBe("0");
  });

  it("pages the free systems of an account without sites in name order, searched by the server", async () => {
    const other = await registerOwner("Free Plants");
    await seedSiteFleet(other, 1_200, { autoSites: false });
    const first = await call("/api/available-systems", { token: other.token });
    const page = await expectStatus<AvailableSystem[]>(first, 200);
    expect(page).toHaveLength(1_000);
    expect(first.headers.get("X-Total-Count")).toBe("1200");
    expect(page.map((system) => system.name)).toEqual([...page.map((system) => system.name)].sort());
    expect(page[0]?.currentPowerW).not.toBeNull();
    const small = await call("/api/available-systems?pageSize=50&page=24", { token: other.token });
    expect(((await small.json()) as unknown[]).length).toBe(50);
    expect(links(small).next).toBeUndefined();
    const search = await expectStatus<AvailableSystem[]>(
      await call(`/api/available-systems?q=${encodeURIComponent("solar street, brisbane")}&pageSize=1000`, {
        token: other.token,
      }),
      200,
    );
    expect(search).toHaveLength(1_200 / 5);
    expect(search.every((system) => system.location?.includes("Brisbane"))).toBe(true);
  }, 120_000);
});
