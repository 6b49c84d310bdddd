import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Portfolio } from "../../../schema/api/portfolios";
import type { AvailableSystem, EnhancedSite, Site } from "../../../schema/api/sites";
import { localDayOf } from "../../../worker/domain/energy/local-day";
import { DEFAULT_CALIBRATION } from "../../../worker/domain/solar/pv-model";
import { referenceWhPerKw } from "../../../worker/domain/solar/reference-yield";
import {
  attach,
  connectProvider,
  createSite,
  expectFleetUnchanged,
  setSystemLive,
  sunnyLongitudeNow,
} from "../fleet-helpers";
import {
  auditLog,
  call,
  createOrg,
  entriesFor,
  expectError,
  expectRejectsBadTokens,
  expectStatus,
  type Route,
  type TestOrg,
  type TestUser,
} from "../helpers";

let orgA: TestOrg;
let orgB: TestOrg;
let systemsA: AvailableSystem[];
let north: EnhancedSite;
let south: EnhancedSite;
let bSite: EnhancedSite;
let bPortfolio: Portfolio;

let counter = 0;
const uniqueName = (prefix = "Portfolio") => `${prefix} ${++counter}`;

async function createPortfolio(actor: TestUser, body: Record<string, unknown> = { name: uniqueName() }) {
  return expectStatus<Portfolio>(
    await call("/api/portfolios", { method: "POST", token: actor.token, body }),
    201,
  );
}

async function listPortfolios(actor: TestUser) {
  return expectStatus<Portfolio[]>(await call("/api/portfolios", { token: actor.token }), 200);
}

async function addSites(actor: TestUser, portfolioId: string, siteIds: string[]) {
  return expectStatus<{ added: number; message: string; portfolio: Portfolio }>(
    await call(`/api/portfolios/${portfolioId}/sites`, {
      method: "POST",
      token: actor.token,
      body: { siteIds },
    }),
    200,
  );
}

beforeAll(async () => {
  orgA = await createOrg("Portfolio A");
  orgB = await createOrg("Portfolio B");
  systemsA = await connectProvider(orgA.owner, "solis");
  north = await createSite(orgA.owner, { name: "North" });
  south = await createSite(orgA.owner, { name: "South", capacity: "40" });
  bSite = await createSite(orgB.owner, { name: "B site" });
  bPortfolio = await createPortfolio(orgB.owner, { name: "B's portfolio" });
  await addSites(orgB.owner, bPortfolio.id, [bSite.id]);
});

describe("creating, renaming and deleting portfolios", () => {
  it("creates a portfolio with a trimmed name, leaving out an empty description", async () => {
    const created = await createPortfolio(orgA.engineer, { name: "  Rooftops  ", description: "   " });
    expect(created).toMatchObject({ name: "Rooftops", siteCount: 0, siteIds: [], capacityKw: 0 });
    expect(created).not.toHaveProperty("description");
    expect(Date.parse(created.createdAt)).not.toBeNaN();
    const described = await createPortfolio(orgA.owner, {
      name: uniqueName(),
      description: "  Utility scale  ",
    });
    expect(described.description).toBe("Utility scale");
    const listed = await listPortfolios(orgA.user);
    expect(listed.map((p) => p.id)).toEqual(expect.arrayContaining([created.id, described.id]));
    expect(entriesFor(await auditLog(orgA.owner), "portfolio.create").map((e) => e.targetId)).toEqual(
      expect.arrayContaining([created.id, described.id]),
    );
  });

  it("refuses a duplicate name in the organisation, whatever its case, with 409 and nothing written", async () => {
    const name = uniqueName("Duplicate");
    await createPortfolio(orgA.owner, { name });
    await expectFleetUnchanged(async () => {
      const error = await expectError(
        await call("/api/portfolios", {
          method: "POST",
          token: orgA.owner.token,
          body: { name: ` ${name.toUpperCase()} ` },
        }),
        409,
        "A portfolio with this name already exists",
      );
      expect(error.details).toMatchObject({ field: "name" });
    });
    // Another organisation may use the same name.
    await createPortfolio(orgB.owner, { name });
  });

  it("renames and re-describes a portfolio, refusing another portfolio's name", async () => {
    const taken = await createPortfolio(orgA.owner);
    const portfolio = await createPortfolio(orgA.owner, { name: uniqueName(), description: "old" });
    const renamed = await expectStatus<Portfolio>(
      await call(`/api/portfolios/${portfolio.id}`, {
        method: "PATCH",
        token: orgA.engineer.token,
        body: { name: " Renamed Portfolio ", description: "" },
      }),
      200,
    );
    expect(renamed.name).toBe("Renamed Portfolio");
    expect(renamed).not.toHaveProperty("description");
    // Its own name in another case is fine.
    await expectStatus(
      await call(`/api/portfolios/${portfolio.id}`, {
        method: "PATCH",
        token: orgA.owner.token,
        body: { name: "RENAMED PORTFOLIO" },
      }),
      200,
    );
    await expectFleetUnchanged(async () => {
      await expectError(
        await call(`/api/portfolios/${portfolio.id}`, {
          method: "PATCH",
          token: orgA.owner.token,
          body: { name: taken.name },
        }),
        409,
      );
    });
    expect(
      entriesFor(await auditLog(orgA.owner), "portfolio.update").filter((e) => e.targetId === portfolio.id),
    ).toHaveLength(2);
  });

  it("deletes a portfolio and its site links, but not the sites", async () => {
    const portfolio = await createPortfolio(orgA.owner);
    await addSites(orgA.owner, portfolio.id, [north.id]);
    await expectStatus(
      await call(`/api/portfolios/${portfolio.id}`, { method: "DELETE", token: orgA.engineer.token }),
      200,
    );
    expect((await listPortfolios(orgA.owner)).map((p) => p.id)).not.toContain(portfolio.id);
    await expectStatus(await call(`/api/sites/${north.id}`, { token: orgA.owner.token }), 200);
    await expectError(
      await call(`/api/portfolios/${portfolio.id}/sites`, { token: orgA.owner.token }),
      404,
      "Portfolio not found",
    );
    expect(
      entriesFor(await auditLog(orgA.owner), "portfolio.delete").some((e) => e.targetId === portfolio.id),
    ).toBe(true);
  });
});

describe("a portfolio's sites", () => {
  it("adds sites idempotently, counts them everywhere and lets a site sit in several portfolios", async () => {
    const first = await createPortfolio(orgA.owner);
    const second = await createPortfolio(orgA.owner);
    const added = await addSites(orgA.engineer, first.id, [north.id, south.id, north.id]);
    expect(added.added).toBe(2);
    expect(added.portfolio).toMatchObject({ siteCount: 2, siteIds: [north.id, south.id] });
    const again = await addSites(orgA.owner, first.id, [south.id]);
    expect(again).toMatchObject({ added: 0, portfolio: { siteCount: 2 } });
    await addSites(orgA.owner, second.id, [south.id]);

    const listed = await listPortfolios(orgA.user);
    expect(listed.find((p) => p.id === first.id)?.siteCount).toBe(2);
    expect(listed.find((p) => p.id === second.id)?.siteIds).toEqual([south.id]);
    const sites = await expectStatus<Site[]>(
      await call(`/api/portfolios/${first.id}/sites`, { token: orgA.user.token }),
      200,
    );
    expect(sites.map((s) => s.name)).toEqual(["North", "South"]);
    expect(sites[0]).toMatchObject({
      id: north.id,
      status: expect.any(String),
      capacity: expect.any(Number),
    });

    const removed = await expectStatus<{ portfolio: Portfolio }>(
      await call(`/api/portfolios/${first.id}/sites/${north.id}`, {
        method: "DELETE",
        token: orgA.engineer.token,
      }),
      200,
    );
    expect(removed.portfolio.siteIds).toEqual([south.id]);
    await expectFleetUnchanged(async () => {
      await expectError(
        await call(`/api/portfolios/${first.id}/sites/${north.id}`, {
          method: "DELETE",
          token: orgA.owner.token,
        }),
        404,
        "Site not found",
      );
    });
    const log = await auditLog(orgA.owner);
    expect(entriesFor(log, "portfolio.sites_add").filter((e) => e.targetId === first.id)).toHaveLength(1);
    expect(entriesFor(log, "portfolio.site_remove").filter((e) => e.targetId === first.id)).toHaveLength(1);
  });

  it.each([
    ["an unknown site id", () => [north.id, crypto.randomUUID()]],
    ["another organisation's site id", () => [north.id, bSite.id]],
  ])("adds nothing when one of the ids is %s (404 with the missing ids)", async (_label, ids) => {
    const portfolio = await createPortfolio(orgA.owner);
    const siteIds = ids();
    await expectFleetUnchanged(async () => {
      const error = await expectError(
        await call(`/api/portfolios/${portfolio.id}/sites`, {
          method: "POST",
          token: orgA.owner.token,
          body: { siteIds },
        }),
        404,
        "Site not found",
      );
      expect(error.details).toMatchObject({ missingSiteIds: [siteIds[1]] });
    });
  });

  it("sums capacity, live power and today's energy from its sites", async () => {
    // Where it is mid-afternoon now, so today has a past daylight hour whatever time the test runs
    // (at Amsterdam, 11:00 local was still to come between local midnight and noon).
    const place = { latitude: 0.5, longitude: Math.round((sunnyLongitudeNow() + 45 + 180) % 360) - 180 };
    const site = await createSite(orgA.owner, {
      name: "Live",
      latitude: String(place.latitude),
      longitude: String(place.longitude),
    });
    const [one, two] = [systemsA[0], systemsA[1]];
    if (!one || !two) throw new Error("sandbox systems missing");
    await attach(orgA.owner, site.id, one.id);
    await attach(orgA.owner, site.id, two.id);
    const now = Date.now();
    await setSystemLive(one.id, {
      state: "online",
      powerW: 1200,
      energyTodayWh: 3400,
      dataTime: now - 60_000,
    });
    await setSystemLive(two.id, {
      state: "online",
      powerW: 800,
      energyTodayWh: 1600,
      dataTime: now - 120_000,
    });
    const portfolio = await createPortfolio(orgA.owner);
    await addSites(orgA.owner, portfolio.id, [site.id, south.id]);
    const listed = (await listPortfolios(orgA.user)).find((p) => p.id === portfolio.id);
    expect(listed).toMatchObject({ siteCount: 2, currentPowerW: 2000, todayEnergyWh: 5000 });
    expect(listed?.capacityKw).toBeCloseTo((one.capacity ?? 0) + (two.capacity ?? 0) + 40, 6);
    expect(listed?.performanceRatio).toBeNull();

    // Irradiance at the site in a daylight hour of today gone by (about local noon) gives today's
    // expectation, and so a PR.
    const hourStart = Math.floor(now / 3_600_000) * 3_600_000 - 3 * 3_600_000;
    expect(hourStart).toBeGreaterThanOrEqual(localDayOf(now, site.timezone).startMs);
    await env.DB.prepare(
      "INSERT INTO irradiance_hourly (location_key, hour_start, ghi_wm2) VALUES (?, ?, 500)",
    )
      .bind(`${place.latitude.toFixed(2)},${place.longitude.toFixed(2)}`, hourStart)
      .run();
    // The one model's reference yield at the place, times each system's capacity at PVWatts' calibration.
    const whPerKw = referenceWhPerKw(place, [
      {
        hourStart,
        ghiWm2: 500,
        directWm2: null,
        diffuseWm2: null,
        airC: null,
        windMs: null,
        precipitationMm: null,
      },
    ]);
    const expectedWh =
      Math.round((one.capacity ?? 0) * DEFAULT_CALIBRATION * whPerKw) +
      Math.round((two.capacity ?? 0) * DEFAULT_CALIBRATION * whPerKw);
    expect(expectedWh).toBeGreaterThan(0);
    const rated = (await listPortfolios(orgA.user)).find((p) => p.id === portfolio.id);
    expect(rated?.performanceRatio).toBeCloseTo(5000 / expectedWh, 3);

    // Deleting a site takes it out of every portfolio.
    await expectStatus(
      await call(`/api/sites/${site.id}`, { method: "DELETE", token: orgA.owner.token }),
      200,
    );
    const after = (await listPortfolios(orgA.user)).find((p) => p.id === portfolio.id);
    expect(after).toMatchObject({ siteCount: 1, siteIds: [south.id], currentPowerW: 0, capacityKw: 40 });
  });
});

describe("bad input", () => {
  it.each([
    ["a missing name", {}],
    ["a blank name", { name: "   " }],
    ["a name that is not text", { name: 42 }],
    ["an unknown field", { name: "Fine", colour: "blue" }],
    ["a description that is not text", { name: "Fine", description: 7 }],
  ])("refuses a portfolio with %s (400, nothing written)", async (_label, body) => {
    await expectFleetUnchanged(async () => {
      await expectError(
        await call("/api/portfolios", { method: "POST", token: orgA.owner.token, body }),
        400,
        "Invalid input",
      );
    });
  });

  it("refuses malformed JSON and bad site lists with 400 and writes nothing", async () => {
    const portfolio = await createPortfolio(orgA.owner);
    await expectFleetUnchanged(async () => {
      await expectError(
        await call("/api/portfolios", { method: "POST", token: orgA.owner.token, rawBody: '{"name":' }),
        400,
      );
      for (const body of [
        {},
        { siteIds: [] },
        { siteIds: "all" },
        { siteIds: [7] },
        { siteIds: [north.id], extra: 1 },
      ]) {
        await expectError(
          await call(`/api/portfolios/${portfolio.id}/sites`, {
            method: "POST",
            token: orgA.owner.token,
            body,
          }),
          400,
        );
      }
      await expectError(
        await call(`/api/portfolios/${portfolio.id}`, { method: "PATCH", token: orgA.owner.token, body: {} }),
        400,
        "Invalid input",
      );
    });
  });
});

describe("roles", () => {
  it("lets a user read portfolios but change nothing", async () => {
    const portfolio = await createPortfolio(orgA.owner);
    await addSites(orgA.owner, portfolio.id, [north.id]);
    await expectStatus(await call("/api/portfolios", { token: orgA.user.token }), 200);
    await expectStatus(await call(`/api/portfolios/${portfolio.id}/sites`, { token: orgA.user.token }), 200);
    const writes: Route[] = [
      { method: "POST", path: "/api/portfolios", body: { name: uniqueName() } },
      { method: "PATCH", path: `/api/portfolios/${portfolio.id}`, body: { name: uniqueName() } },
      { method: "DELETE", path: `/api/portfolios/${portfolio.id}` },
      { method: "POST", path: `/api/portfolios/${portfolio.id}/sites`, body: { siteIds: [south.id] } },
      { method: "DELETE", path: `/api/portfolios/${portfolio.id}/sites/${north.id}` },
    ];
    await expectFleetUnchanged(async () => {
      for (const route of writes) {
        await expectError(
          await call(route.path, { method: route.method, token: orgA.user.token, body: route.body }),
          403,
        );
      }
    });
  });
});

describe("tenant isolation", () => {
  it("answers 404 for another organisation's portfolio on every route, writing nothing", async () => {
    const routes: Route[] = [
      { method: "PATCH", path: `/api/portfolios/${bPortfolio.id}`, body: { name: "Mine" } },
      { method: "DELETE", path: `/api/portfolios/${bPortfolio.id}` },
      { method: "GET", path: `/api/portfolios/${bPortfolio.id}/sites` },
      { method: "POST", path: `/api/portfolios/${bPortfolio.id}/sites`, body: { siteIds: [north.id] } },
      { method: "DELETE", path: `/api/portfolios/${bPortfolio.id}/sites/${bSite.id}` },
    ];
    await expectFleetUnchanged(async () => {
      for (const route of routes) {
        await expectError(
          await call(route.path, { method: route.method, token: orgA.owner.token, body: route.body }),
          404,
          "Portfolio not found",
        );
      }
    });
    const bView = (await listPortfolios(orgB.user)).find((p) => p.id === bPortfolio.id);
    expect(bView).toMatchObject({ name: "B's portfolio", siteIds: [bSite.id] });
  });

  it("never lists another organisation's portfolios", async () => {
    const aIds = (await listPortfolios(orgA.owner)).map((p) => p.id);
    expect(aIds).not.toContain(bPortfolio.id);
    const bIds = (await listPortfolios(orgB.owner)).map((p) => p.id);
    expect(bIds.some((id) => aIds.includes(id))).toBe(false);
  });
});

describe("authentication", () => {
  it("rejects missing, invalid and expired tokens on every portfolio route", async () => {
    const portfolio = await createPortfolio(orgA.owner);
    const routes: Route[] = [
      { method: "GET", path: "/api/portfolios" },
      { method: "POST", path: "/api/portfolios", body: { name: uniqueName() } },
      { method: "PATCH", path: `/api/portfolios/${portfolio.id}`, body: { name: uniqueName() } },
      { method: "DELETE", path: `/api/portfolios/${portfolio.id}` },
      { method: "GET", path: `/api/portfolios/${portfolio.id}/sites` },
      { method: "POST", path: `/api/portfolios/${portfolio.id}/sites`, body: { siteIds: [north.id] } },
      { method: "DELETE", path: `/api/portfolios/${portfolio.id}/sites/${north.id}` },
    ];
    for (const route of routes) await expectRejectsBadTokens(route, orgA.owner);
  });
});
