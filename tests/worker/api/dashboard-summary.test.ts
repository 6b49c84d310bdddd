import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { DashboardSummary, SystemsPage } from "../../../schema/api/dashboard";
import type { DashboardMetric } from "../../../schema/api/metrics";
import type { Site } from "../../../schema/api/sites";
import worker from "../../../worker/index";
import { gunzipText } from "../../../worker/lib/gzip";
import {
  attach,
  connectProvider,
  createSite,
  meteronlineImport,
  patchStoreLive,
  setSystemLive,
  storeSql,
} from "../fleet-helpers";
import {
  BASE,
  call,
  expectError,
  expectRejectsBadTokens,
  expectStatus,
  registerOwner,
  type TestUser,
} from "../helpers";

const metricsOf = async (user: TestUser) =>
  expectStatus<DashboardMetric[]>(await call("/api/dashboard/metrics", { token: user.token }), 200);
const summaryOf = async (user: TestUser) =>
  expectStatus<DashboardSummary>(await call("/api/dashboard/summary", { token: user.token }), 200);
const pageOf = async (user: TestUser, query: string) =>
  expectStatus<SystemsPage>(await call(`/api/dashboard/systems?${query}`, { token: user.token }), 200);

const meteronlineCsv = meteronlineImport([
  "01-07-2024 10:05;MO-1001;Dakpark Noord;3,300;12,7",
  "01-07-2024 10:05;MO-2002;Loods Zuid;1,100;4,0",
]);

/**
 * An organisation with SolisCloud's and Solar.web's sandbox plants (three each, synced for real)
 * and two Meteronline imports; one solis plant stale (an hour-old value in daylight) and one
 * Fronius plant without a known capacity.
 */
async function seededFleet() {
  const owner = await registerOwner("Two Providers");
  await connectProvider(owner, "solis");
  await connectProvider(owner, "fronius");
  await expectStatus(
    await call("/api/providers/meteronline/import", {
      method: "POST",
      token: owner.token,
      body: meteronlineCsv,
    }),
    200,
  );
  const synced = await metricsOf(owner);
  // Systems without a vendor fault right now (the sandbox faults inverters at set hours): a fault outranks stale.
  const stale = synced.find((m) => m.provider === "solis" && m.status !== "fault");
  const unrated = synced.find((m) => m.provider === "fronius");
  if (!stale || !unrated) throw new Error("the sandbox accounts gave no solis or fronius plant");
  const sunnyLongitude = (((12 - new Date().getUTCHours()) * 15 + 540) % 360) - 180;
  await env.DB.prepare("UPDATE monitoring_systems SET latitude = 0, longitude = ? WHERE id = ?")
    .bind(sunnyLongitude, stale.systemId)
    .run();
  await env.DB.prepare("UPDATE monitoring_systems SET capacity_w = NULL WHERE id = ?")
    .bind(unrated.systemId)
    .run();
  // Known power everywhere (the sandbox's plants make none at night), the stale plant's an hour old.
  const counted = await storeSql<{ sys: number; system_id: string }>(
    owner.orgId,
    "SELECT sys, system_id FROM systems WHERE provider != 'meteronline'",
  );
  for (const { sys, system_id } of counted) {
    await patchStoreLive(owner.orgId, system_id, { powerW: 500 + sys * 100 });
  }
  await patchStoreLive(owner.orgId, stale.systemId, { dataTime: Date.now() - 3_600_000 });
  const metrics = await metricsOf(owner);
  expect(metrics.find((m) => m.systemId === stale.systemId)).toMatchObject({ stale: true });
  expect(metrics.find((m) => m.systemId === unrated.systemId)).toMatchObject({ capacity: 0 });
  return { owner, metrics, staleId: stale.systemId, unratedId: unrated.systemId };
}

/** Two real syncs and an import before each test that seeds the fleet: seconds on a busy machine. */
const SEEDED = { timeout: 60_000 };

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe("GET /api/dashboard/summary", SEEDED, () => {
  it("answers the fleet's totals as sums over its systems, per provider too, meteronline left out", async () => {
    const { owner, metrics, staleId } = await seededFleet();
    expect(metrics).toHaveLength(8);
    const summary = await summaryOf(owner);
    const counted = metrics.filter((m) => m.provider !== "meteronline");
    const fresh = counted.filter((m) => !m.stale);
    const rated = counted.filter((m) => m.capacity > 0);
    const expected = counted.filter((m) => (m.expectedTodayWh ?? 0) > 0);
    expect(summary.systemCount).toBe(8);
    expect(summary.excludedSystemCount).toBe(2);
    expect(summary.totals.systemCount).toBe(6);
    expect(summary.totals.todayWh).toBeCloseTo(sum(counted.map((m) => m.todayGenerationWh)), 6);
    // The stale plant's last value is not current output.
    expect(summary.totals.powerW).toBeCloseTo(sum(fresh.map((m) => m.currentPowerW)), 6);
    expect(metrics.find((m) => m.systemId === staleId)?.currentPowerW).toBeGreaterThan(0);
    expect(summary.totals.capacityKw).toBeCloseTo(sum(counted.map((m) => m.capacity)), 6);
    // The plant without a capacity has no efficiency: it is not a 0 % in the mean. The stale plant's
    // last power is not its efficiency now: it counts 0 %, as its power counts 0 W above.
    expect(rated).toHaveLength(5);
    expect(metrics.find((m) => m.systemId === staleId)?.efficiency).toBeGreaterThan(0);
    expect(summary.totals.meanEfficiencyPercent).toBeCloseTo(
      sum(rated.map((m) => (m.systemId === staleId ? 0 : m.efficiency))) / 5,
      6,
    );
    if (expected.length === 0) expect(summary.totals.performanceRatio).toBeNull();
    else {
      expect(summary.totals.performanceRatio).toBeCloseTo(
        sum(expected.map((m) => m.todayGenerationWh)) / sum(expected.map((m) => m.expectedTodayWh ?? 0)),
        9,
      );
    }
    const newest = Math.max(...counted.map((m) => (m.dataTime ? Date.parse(m.dataTime) : 0)));
    expect(summary.totals.dataTime).toBe(new Date(newest).toISOString());

    expect(summary.providers.map((p) => p.provider)).toEqual(["solis", "sma", "solax", "fronius"]);
    for (const row of summary.providers) {
      const systems = counted.filter((m) => m.provider === row.provider);
      expect(row, row.provider).toEqual({
        provider: row.provider,
        siteCount: new Set(systems.flatMap((m) => (m.siteId ? [m.siteId] : []))).size,
        systemCount: systems.length,
        capacityKw: expect.closeTo(sum(systems.map((m) => m.capacity)), 6),
        powerW: expect.closeTo(sum(systems.filter((m) => !m.stale).map((m) => m.currentPowerW)), 6),
      });
    }
    expect(summary.providers.find((p) => p.provider === "solis")?.systemCount).toBe(3);
    expect(summary.providers.find((p) => p.provider === "fronius")?.systemCount).toBe(3);

    // The fallback totals are the same figures.
    const fallback = await expectStatus(await call("/api/debug/dashboard-test", { token: owner.token }), 200);
    expect(fallback).toMatchObject({
      totalCurrentPower: summary.totals.powerW,
      totalTodayGeneration: Math.round(summary.totals.todayWh) / 1000,
    });
  });

  it("names the first located system as the weather place", async () => {
    const owner = await registerOwner();
    await connectProvider(owner, "solis");
    const [first] = (await metricsOf(owner)).filter((m) => m.location.latitude !== null);
    expect((await summaryOf(owner)).weatherPlace).toEqual({
      latitude: first?.location.latitude,
      longitude: first?.location.longitude,
      name: first?.siteName ?? first?.stationName,
    });
  });

  it("counts the sites, and as active those marked active with a live system, as the site list shows them", async () => {
    const owner = await registerOwner();
    await connectProvider(owner, "solis");
    const systems = await metricsOf(owner);
    const [first, second, third] = systems;
    if (!first || !second || !third) throw new Error("the sandbox account gave fewer than three plants");
    // Three sites of one plant each, and one without any: a site without systems is never live.
    const sitesOf = [first, second, third].map(async (system, index) => {
      const site = await createSite(owner, { name: `Yard ${index + 1}` });
      await attach(owner, site.id, system.systemId);
      return site;
    });
    const [live, inactive, offline] = await Promise.all(sitesOf);
    await createSite(owner, { name: "Empty Yard" });
    if (!live || !inactive || !offline) throw new Error("sites were not created");
    const markActive = async (isActive: boolean) =>
      expectStatus(
        await call(`/api/sites/${inactive.id}`, { method: "PATCH", token: owner.token, body: { isActive } }),
        200,
      );
    await markActive(false);
    // Online with fresh data (the site list's and the metrics' rule alike), and one plant offline.
    const now = Date.now();
    for (const [system, state] of [
      [first, "online"],
      [second, "online"],
      [third, "offline"],
    ] as const) {
      await setSystemLive(system.systemId, { state, powerW: 1000, energyTodayWh: 5000, dataTime: now });
    }

    const summary = await summaryOf(owner);
    const sites = await expectStatus<Site[]>(await call("/api/sites", { token: owner.token }), 200);
    expect(sites).toHaveLength(4);
    expect(summary.sites).toEqual({ count: 4, activeCount: 1 });
    expect(sites.filter((site) => site.isActive && site.status !== "offline").map((site) => site.id)).toEqual(
      [live.id],
    );

    // Marked active again, the second site counts; another organisation's sites never do.
    await markActive(true);
    expect((await summaryOf(owner)).sites).toEqual({ count: 4, activeCount: 2 });
    // A plant in fault is reported by its vendor: its site is live.
    await setSystemLive(third.systemId, {
      state: "alarm",
      powerW: 0,
      energyTodayWh: 5000,
      dataTime: Date.now(),
    });
    expect((await summaryOf(owner)).sites).toEqual({ count: 4, activeCount: 3 });
    expect((await summaryOf(await registerOwner("Other"))).sites).toEqual({ count: 0, activeCount: 0 });
  });

  it("keeps organisations apart and needs a token", async () => {
    const owner = await registerOwner();
    const other = await registerOwner("Other");
    await connectProvider(owner, "solis");
    expect((await summaryOf(owner)).systemCount).toBe(3);
    const empty = await summaryOf(other);
    expect(empty).toMatchObject({ systemCount: 0, excludedSystemCount: 0, weatherPlace: null });
    expect(empty.totals).toMatchObject({
      systemCount: 0,
      powerW: 0,
      todayWh: 0,
      meanEfficiencyPercent: null,
    });
    expect((await pageOf(other, "")).total).toBe(0);
    expect((await pageOf(other, "q=")).items).toEqual([]);
    await expectRejectsBadTokens({ method: "GET", path: "/api/dashboard/summary" }, owner);
    await expectRejectsBadTokens({ method: "GET", path: "/api/dashboard/systems?page=1" }, owner);
  });
});

describe("GET /api/dashboard/systems", SEEDED, () => {
  it("pages through every system once, in a stable order, with the total", async () => {
    const { owner, metrics } = await seededFleet();
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const answer = await pageOf(owner, `page=${page}&pageSize=3&sort=system`);
      expect(answer).toMatchObject({ page, pageSize: 3, total: 8 });
      expect(answer.items).toHaveLength(page === 3 ? 2 : 3);
      seen.push(...answer.items.map((m) => m.systemId));
    }
    expect([...seen].sort()).toEqual(metrics.map((m) => m.systemId).sort());
    expect((await pageOf(owner, "page=4&pageSize=3")).items).toEqual([]);
    // The same read model, the same order: asking again answers the same page.
    expect((await pageOf(owner, "page=2&pageSize=3&sort=system")).items.map((m) => m.systemId)).toEqual(
      seen.slice(3, 6),
    );
  });

  it("sorts by each column, either way, unknown values last", async () => {
    const { owner, metrics, staleId } = await seededFleet();
    const all = async (query: string) => (await pageOf(owner, `pageSize=200&${query}`)).items;
    const nameOf = (m: DashboardMetric) => m.stationName || m.siteName || m.systemId;
    const byName = await all("sort=system&direction=asc");
    expect(byName.map(nameOf)).toEqual(
      metrics.map(nameOf).sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base", numeric: true })),
    );
    expect((await all("sort=system&direction=desc")).map(nameOf)).toEqual(byName.map(nameOf).reverse());

    const today = (await all("sort=today&direction=desc")).map((m) => m.todayGenerationWh);
    expect(today).toEqual([...today].sort((a, b) => b - a));
    // Stale plants (the one made stale, the old imports) have no current power to rank: last
    // whichever the direction.
    const staleCount = metrics.filter((m) => m.stale).length;
    expect(staleCount).toBeGreaterThanOrEqual(1);
    for (const direction of ["asc", "desc"]) {
      const byPower = await all(`sort=power&direction=${direction}`);
      expect(
        byPower.slice(-staleCount).every((m) => m.stale),
        direction,
      ).toBe(true);
      expect(
        byPower.slice(-staleCount).map((m) => m.systemId),
        direction,
      ).toContain(staleId);
      const powers = byPower.slice(0, -staleCount).map((m) => m.currentPowerW);
      expect(powers, direction).toEqual([...powers].sort((a, b) => (direction === "asc" ? a - b : b - a)));
      expect(new Set(powers).size, direction).toBeGreaterThan(1);
    }
    const providers = (await all("sort=provider")).map((m) => m.provider);
    expect(providers).toEqual([...providers].sort());
    // Worst performance ratio first by default; systems without one after the others.
    const ratios = (await all("")).map((m) => m.performanceRatio);
    const known = ratios.filter((r): r is number => r !== null);
    expect(ratios).toEqual([...known.sort((a, b) => a - b), ...ratios.filter((r) => r === null)]);
  });

  it("finds systems by name, site name or vendor id, whatever the case", async () => {
    const { owner, metrics } = await seededFleet();
    const solis = metrics.find((m) => m.provider === "solis") as DashboardMetric;
    const byName = await pageOf(owner, `q=${encodeURIComponent(solis.stationName.toUpperCase())}`);
    expect(byName.items.map((m) => m.systemId)).toContain(solis.systemId);
    expect(byName.total).toBe(
      metrics.filter((m) => m.stationName.toLowerCase().includes(solis.stationName.toLowerCase())).length,
    );
    const byVendorId = await pageOf(owner, `q=${encodeURIComponent(solis.providerId)}`);
    expect(byVendorId.items.map((m) => m.systemId)).toEqual([solis.systemId]);

    const site = await createSite(owner, { name: "Zeeburg Depot" });
    await attach(owner, site.id, solis.systemId);
    const bySite = await pageOf(owner, "q=%20zeeburg%20");
    expect(bySite).toMatchObject({
      total: 1,
      items: [{ systemId: solis.systemId, siteName: "Zeeburg Depot" }],
    });
    expect(await pageOf(owner, "q=nowhere-at-all")).toMatchObject({ total: 0, items: [] });
  });

  it("lists one site's systems only, with or without a search", async () => {
    const { owner, metrics } = await seededFleet();
    const [first, second, outside] = metrics as [DashboardMetric, DashboardMetric, DashboardMetric];
    const site = await createSite(owner, { name: "Haarlem Yard" });
    await attach(owner, site.id, first.systemId);
    await attach(owner, site.id, second.systemId);
    const bySite = await pageOf(owner, `siteId=${site.id}&sort=system`);
    expect(bySite.total).toBe(2);
    expect(bySite.items.map((m) => m.systemId).sort()).toEqual([first.systemId, second.systemId].sort());
    expect(bySite.items.every((m) => m.siteId === site.id)).toBe(true);
    const searched = await pageOf(owner, `siteId=${site.id}&q=${encodeURIComponent(first.providerId)}`);
    expect(searched.items.map((m) => m.systemId)).toEqual([first.systemId]);
    expect((await pageOf(owner, `siteId=${site.id}&q=${encodeURIComponent(outside.providerId)}`)).total).toBe(
      0,
    );
    // Another organisation's site id lists nothing of this fleet.
    const other = await registerOwner("Other");
    const foreignSite = await createSite(other);
    expect(await pageOf(owner, `siteId=${foreignSite.id}`)).toMatchObject({ total: 0, items: [] });
  });

  it("refuses a bad query with validation_failed", async () => {
    const owner = await registerOwner();
    for (const query of [
      "page=0",
      "page=abc",
      "page=1.5",
      "pageSize=0",
      "pageSize=201",
      "sort=capacity",
      "direction=up",
      `q=${"x".repeat(101)}`,
      "siteId=",
      "limit=10",
    ]) {
      const error = await expectError(
        await call(`/api/dashboard/systems?${query}`, { token: owner.token }),
        400,
        "Invalid input",
      );
      expect(error.code, query).toBe("validation_failed");
    }
  });

  it("sends a page gzipped to a client that takes gzip and plain to one that does not", async () => {
    const owner = await registerOwner();
    await connectProvider(owner, "solis");
    const request = (acceptEncoding: string) =>
      new Request(`${BASE}/api/dashboard/systems?pageSize=2`, {
        headers: { Authorization: `Bearer ${owner.token}`, "Accept-Encoding": acceptEncoding },
      });
    const plain = await worker.fetch(request("identity"), env, createExecutionContext());
    expect(plain.headers.get("Content-Encoding")).toBeNull();
    const plainBody = (await plain.json()) as SystemsPage;
    expect(plainBody).toMatchObject({ page: 1, pageSize: 2, total: 3 });
    const zipped = await worker.fetch(request("gzip, deflate, br"), env, createExecutionContext());
    expect(zipped.headers.get("Content-Encoding")).toBe("gzip");
    expect(zipped.headers.get("Vary")).toContain("Accept-Encoding");
    const bytes = new Uint8Array(await zipped.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    expect(JSON.parse(await gunzipText(bytes))).toEqual(plainBody);
  });
});
