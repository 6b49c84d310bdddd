import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { AvailableSystem, EnhancedSite, Site, SiteDeleted } from "../../../schema/api/sites";
import {
  attach,
  availableSystems,
  connectProvider,
  createSite,
  expectFleetUnchanged,
  setSystemLive,
  sitePayload,
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
} from "../helpers";

let orgA: TestOrg;
let orgB: TestOrg;
let systemsA: AvailableSystem[];
let systemsB: AvailableSystem[];
let siteB: EnhancedSite;

beforeAll(async () => {
  orgA = await createOrg("Fleet A");
  orgB = await createOrg("Fleet B");
  systemsA = await connectProvider(orgA.owner, "solis");
  systemsB = await connectProvider(orgB.owner, "fronius");
  siteB = await createSite(orgB.owner, { name: "B's site" });
  await attach(orgB.owner, siteB.id, systemsB[0]?.id ?? "");
});

const systemA = (index: number) => {
  const system = systemsA[index];
  if (!system) throw new Error(`no sandbox system ${index}`);
  return system;
};

async function deleteSite(siteId: string) {
  return expectStatus<SiteDeleted>(
    await call(`/api/sites/${siteId}`, { method: "DELETE", token: orgA.owner.token }),
    200,
  );
}

describe("creating and reading sites", () => {
  it("creates a site from the site form's payload with numbers as strings and lists it", async () => {
    const created = await createSite(orgA.engineer, {
      name: "  Canal House  ",
      capacity: "12.5",
      provider: "solis",
      estimatedYield: "11800",
    });
    expect(created).toMatchObject({
      name: "Canal House",
      address: "Keizersgracht 123, Amsterdam",
      location: "123, Keizersgracht, Amsterdam, Noord-Holland, Nederland",
      latitude: 52.3752,
      longitude: 4.8862,
      city: "Amsterdam",
      timezone: "Europe/Amsterdam",
      provider: "solis",
      capacity: 12.5,
      capacitySource: "manual",
      estimatedYield: 11800,
      status: "offline",
      currentPower: 0,
      todayGeneration: 0,
      lastUpdate: null,
      isActive: true,
      systemCount: 0,
      systems: [],
    });

    const list = await expectStatus<Site[]>(await call("/api/sites", { token: orgA.user.token }), 200);
    expect(list.find((s) => s.id === created.id)).toMatchObject({ name: "Canal House", capacity: 12.5 });
    const one = await expectStatus<EnhancedSite>(
      await call(`/api/sites/${created.id}`, { token: orgA.user.token }),
      200,
    );
    expect(one).toMatchObject({ id: created.id, totalCapacity: 12.5, systems: [] });
    const entries = entriesFor(await auditLog(orgA.owner), "site.create");
    expect(entries.some((e) => e.targetId === created.id && e.actorId === orgA.engineer.id)).toBe(true);
    await deleteSite(created.id);
  });

  it.each([
    ["33.4484", "-112.0741", "America/Phoenix"],
    ["-33.8688", "151.2093", "Australia/Sydney"],
    ["41.8933", "12.4829", "Europe/Rome"],
    ["40.7127", "-74.0060", "America/New_York"],
  ])("derives the IANA zone of %s, %s (%s) from the coordinates", async (latitude, longitude, zone) => {
    const site = await createSite(orgA.owner, { latitude, longitude });
    expect(site.timezone).toBe(zone);
    await deleteSite(site.id);
  });

  it("moves the zone with the coordinates on update", async () => {
    const site = await createSite(orgA.owner);
    const moved = await expectStatus<EnhancedSite>(
      await call(`/api/sites/${site.id}`, {
        method: "PATCH",
        token: orgA.engineer.token,
        body: { latitude: "33.4484", longitude: -112.0741, name: "Desert Array", tiltDeg: "25" },
      }),
      200,
    );
    expect(moved).toMatchObject({ name: "Desert Array", timezone: "America/Phoenix", tiltDeg: 25 });
    const entries = entriesFor(await auditLog(orgA.owner), "site.update");
    expect(entries.find((e) => e.targetId === site.id)?.details).toMatchObject({
      fields: expect.arrayContaining(["name", "latitude", "longitude", "timezone", "tiltDeg"]),
    });
    await deleteSite(site.id);
  });

  it("keeps the site's capacity at the sum of its systems unless set", async () => {
    const site = await createSite(orgA.owner);
    expect(site).toMatchObject({ capacity: 0, capacitySource: "systems" });
    await attach(orgA.owner, site.id, systemA(0).id);
    const { site: withTwo } = await attach(orgA.owner, site.id, systemA(1).id);
    const sum = (systemA(0).capacity ?? 0) + (systemA(1).capacity ?? 0);
    expect(sum).toBeGreaterThan(0);
    expect(withTwo.capacity).toBeCloseTo(sum, 6);
    expect(withTwo.totalCapacity).toBeCloseTo(sum, 6);

    const manual = await expectStatus<EnhancedSite>(
      await call(`/api/sites/${site.id}`, {
        method: "PATCH",
        token: orgA.owner.token,
        body: { capacity: "100" },
      }),
      200,
    );
    expect(manual).toMatchObject({ capacity: 100, capacitySource: "manual" });
    const back = await expectStatus<EnhancedSite>(
      await call(`/api/sites/${site.id}`, {
        method: "PATCH",
        token: orgA.owner.token,
        body: { capacity: null },
      }),
      200,
    );
    expect(back.capacitySource).toBe("systems");
    expect(back.capacity).toBeCloseTo(sum, 6);
    await deleteSite(site.id);
  });
});

describe("attaching monitoring systems", () => {
  it("moves systems between the available list and a site, and back when detached or the site is deleted", async () => {
    const site = await createSite(orgA.owner);
    expect((await availableSystems(orgA.user)).map((s) => s.id).sort()).toEqual(
      systemsA.map((s) => s.id).sort(),
    );

    // The create-site wizard's body: identified by provider and the provider's id.
    const first = systemA(0);
    const added = await expectStatus<{ attached: boolean; message: string; system: Record<string, unknown> }>(
      await call(`/api/sites/${site.id}/systems`, {
        method: "POST",
        token: orgA.engineer.token,
        body: {
          systemName: first.name,
          provider: first.provider,
          providerId: first.providerId,
          capacity: String(first.capacity),
          systemType: "pv",
        },
      }),
      201,
    );
    expect(added.attached).toBe(true);
    expect(added.system).toMatchObject({
      id: first.id,
      systemName: first.name,
      provider: "solis",
      providerId: first.providerId,
      capacity: first.capacity,
      systemType: "pv",
    });
    await attach(orgA.owner, site.id, systemA(1).id);
    expect((await availableSystems(orgA.user)).map((s) => s.id)).toEqual([systemA(2).id]);

    // Attaching again changes nothing and says so.
    const again = await expectStatus<{ attached: boolean }>(
      await call(`/api/sites/${site.id}/systems`, {
        method: "POST",
        token: orgA.owner.token,
        body: { systemId: first.id },
      }),
      200,
    );
    expect(again.attached).toBe(false);

    const enhanced = await expectStatus<EnhancedSite[]>(
      await call("/api/sites/enhanced", { token: orgA.user.token }),
      200,
    );
    const mine = enhanced.find((s) => s.id === site.id);
    expect(mine?.systemCount).toBe(2);
    expect(mine?.systems.map((s) => s.id).sort()).toEqual([first.id, systemA(1).id].sort());
    expect(mine?.provider).toBe("solis");
    expect(mine?.systems[0]).toEqual(
      expect.objectContaining({
        systemType: "pv",
        inverterCount: expect.any(Number),
        state: expect.stringMatching(/^(online|offline|alarm)$/),
      }),
    );

    const detached = await expectStatus<{ site: EnhancedSite }>(
      await call(`/api/sites/${site.id}/systems/${first.id}`, {
        method: "DELETE",
        token: orgA.engineer.token,
      }),
      200,
    );
    expect(detached.site.systems.map((s) => s.id)).toEqual([systemA(1).id]);
    expect((await availableSystems(orgA.user)).map((s) => s.id).sort()).toEqual(
      [first.id, systemA(2).id].sort(),
    );

    const deleted = await deleteSite(site.id);
    expect(deleted.releasedSystemIds).toEqual([systemA(1).id]);
    expect((await availableSystems(orgA.user)).map((s) => s.id).sort()).toEqual(
      systemsA.map((s) => s.id).sort(),
    );
    await expectError(
      await call(`/api/sites/${site.id}`, { token: orgA.owner.token }),
      404,
      "Site not found",
    );

    const log = await auditLog(orgA.owner);
    expect(entriesFor(log, "site.system_attach").filter((e) => e.targetId === site.id)).toHaveLength(2);
    expect(entriesFor(log, "site.system_detach").filter((e) => e.targetId === site.id)).toHaveLength(1);
    expect(entriesFor(log, "site.delete").find((e) => e.targetId === site.id)?.details).toMatchObject({
      releasedSystemIds: [systemA(1).id],
    });
  });

  it("refuses a system that belongs to another site with 409 and writes nothing", async () => {
    const one = await createSite(orgA.owner, { name: "One" });
    const two = await createSite(orgA.owner, { name: "Two" });
    await attach(orgA.owner, one.id, systemA(2).id);
    await expectFleetUnchanged(async () => {
      const body = await expectError(
        await call(`/api/sites/${two.id}/systems`, {
          method: "POST",
          token: orgA.owner.token,
          body: { systemId: systemA(2).id },
        }),
        409,
        "This system is already attached to another site",
      );
      expect(body.details).toEqual({ reason: "system_attached", siteId: one.id });
    });
    await deleteSite(one.id);
    await deleteSite(two.id);
  });

  it.each([
    ["an unknown system id", () => ({ systemId: crypto.randomUUID() })],
    [
      "an unknown provider id",
      () => ({ provider: "solis", providerId: "999999", systemName: "x", capacity: "5" }),
    ],
    ["another organisation's system id", () => ({ systemId: systemsB[1]?.id })],
    [
      "another organisation's provider id",
      () => ({ provider: systemsB[1]?.provider, providerId: systemsB[1]?.providerId, systemName: "x" }),
    ],
  ])("answers 404 with details for %s and writes nothing", async (_label, body) => {
    const site = await createSite(orgA.owner);
    await expectFleetUnchanged(async () => {
      const error = await expectError(
        await call(`/api/sites/${site.id}/systems`, {
          method: "POST",
          token: orgA.owner.token,
          body: body(),
        }),
        404,
        "Monitoring system not found",
      );
      expect(error.details).toMatchObject({ message: expect.stringContaining("Sync the provider") });
    });
    await deleteSite(site.id);
  });

  it("answers 404 when detaching a system that is not on the site", async () => {
    const site = await createSite(orgA.owner);
    await expectFleetUnchanged(async () => {
      await expectError(
        await call(`/api/sites/${site.id}/systems/${systemA(0).id}`, {
          method: "DELETE",
          token: orgA.owner.token,
        }),
        404,
        "Monitoring system not found",
      );
    });
    await deleteSite(site.id);
  });
});

describe("site status from its systems", () => {
  it("is fault when a system reports an alarm, online with fresh data, offline when stale in daylight", async () => {
    // At the equator where it is noon now, so "daylight" holds without mocking the clock.
    const site = await createSite(orgA.owner, { latitude: "0.5", longitude: String(sunnyLongitudeNow()) });
    const [first, second] = [systemA(0), systemA(1)];
    await attach(orgA.owner, site.id, first.id);
    await attach(orgA.owner, site.id, second.id);
    const now = Date.now();
    const statusOf = async () => {
      const list = await expectStatus<Site[]>(await call("/api/sites", { token: orgA.user.token }), 200);
      const found = list.find((s) => s.id === site.id);
      if (!found) throw new Error("site missing");
      return found;
    };

    await setSystemLive(first.id, {
      state: "online",
      powerW: 1500,
      energyTodayWh: 4000,
      dataTime: now - 5 * 60_000,
    });
    await setSystemLive(second.id, {
      state: "online",
      powerW: 2500,
      energyTodayWh: 6000,
      dataTime: now - 60_000,
    });
    expect(await statusOf()).toMatchObject({
      status: "online",
      currentPower: 4000,
      todayGeneration: 10_000,
      onlineSystemCount: 2,
      lastUpdate: new Date(now - 60_000).toISOString(),
    });

    // Stale for two hours in daylight: offline, and its old power is not current power.
    await setSystemLive(first.id, {
      state: "online",
      powerW: 1500,
      energyTodayWh: 4000,
      dataTime: now - 2 * 3_600_000,
    });
    await setSystemLive(second.id, {
      state: "online",
      powerW: 2500,
      energyTodayWh: 6000,
      dataTime: now - 45 * 60_000,
    });
    expect(await statusOf()).toMatchObject({ status: "offline", currentPower: 0, onlineSystemCount: 0 });

    await setSystemLive(second.id, {
      state: "alarm",
      powerW: 0,
      energyTodayWh: 6000,
      dataTime: now - 60_000,
    });
    expect((await statusOf()).status).toBe("fault");

    // Yesterday's counter is not today's energy.
    await setSystemLive(first.id, {
      state: "offline",
      powerW: 0,
      energyTodayWh: 9000,
      dataTime: now - 36 * 3_600_000,
    });
    await setSystemLive(second.id, {
      state: "online",
      powerW: 800,
      energyTodayWh: 700,
      dataTime: now - 60_000,
    });
    expect(await statusOf()).toMatchObject({ status: "online", currentPower: 800, todayGeneration: 700 });

    const detail = await expectStatus<EnhancedSite>(
      await call(`/api/sites/${site.id}`, { token: orgA.user.token }),
      200,
    );
    expect(detail.systems.find((s) => s.id === first.id)).toMatchObject({
      state: "offline",
      status: "offline",
    });
    await deleteSite(site.id);
  });
});

describe("bad input", () => {
  const badBodies: [string, Record<string, unknown>, string, string][] = [
    ["a missing name", { name: undefined }, "name", "Name is required"],
    ["a blank name", { name: "   " }, "name", "Name is required"],
    [
      "a missing address",
      { address: undefined },
      "address",
      "Address required: Please enter an address to search for",
    ],
    ["no coordinates", { latitude: undefined }, "latitude", "Address verification required"],
    ["a non-numeric capacity", { capacity: "ten" }, "capacity", "Capacity must be a number"],
    ["a negative capacity", { capacity: "-5" }, "capacity", "Capacity must not be negative"],
    ["a latitude above 90", { latitude: "91" }, "latitude", "Latitude must be between -90 and 90"],
    ["a latitude below -90", { latitude: -90.5 }, "latitude", "Latitude must be between -90 and 90"],
    ["a non-numeric latitude", { latitude: "north" }, "latitude", "Latitude must be a number"],
    [
      "a longitude outside -180..180",
      { longitude: "181" },
      "longitude",
      "Longitude must be between -180 and 180",
    ],
    ["an unknown provider", { provider: "acme" }, "provider", ""],
    ["no provider (a new site has no system to take one from)", { provider: undefined }, "provider", ""],
    ["a null provider", { provider: null }, "provider", ""],
    ["a tilt above 90", { tiltDeg: 95 }, "tiltDeg", "Tilt must be between 0 and 90 degrees"],
    ["an unknown field", { colour: "blue" }, "", "Unrecognized key"],
  ];

  it.each(badBodies)(
    "refuses a site with %s: 400 with details, nothing written",
    async (_label, change, path, message) => {
      const body: Record<string, unknown> = { ...sitePayload(), ...change };
      await expectFleetUnchanged(async () => {
        const error = await expectError(
          await call("/api/sites", { method: "POST", token: orgA.owner.token, body }),
          400,
          "Invalid input",
        );
        const issues = error.details as { path: string[]; message: string }[];
        const issue = issues.find((i) => i.path.join(".") === path);
        expect(issue, JSON.stringify(issues)).toBeDefined();
        expect(issue?.message).toContain(message);
      });
    },
  );

  it.each([
    ["malformed JSON", { rawBody: '{"name": "x",' }],
    ["a form body", { rawBody: "name=x", headers: { "Content-Type": "application/x-www-form-urlencoded" } }],
    ["a JSON array", { body: [sitePayload()] }],
  ])("refuses %s with a 400 JSON error and writes nothing", async (_label, init) => {
    await expectFleetUnchanged(async () => {
      await expectError(await call("/api/sites", { method: "POST", token: orgA.owner.token, ...init }), 400);
    });
  });

  it("refuses updates that change nothing or carry bad values", async () => {
    const site = await createSite(orgA.owner);
    for (const body of [{}, { latitude: 100 }, { capacity: "-1" }, { name: "" }, { owner: "me" }]) {
      await expectFleetUnchanged(async () => {
        await expectError(
          await call(`/api/sites/${site.id}`, { method: "PATCH", token: orgA.owner.token, body }),
          400,
        );
      });
    }
    await deleteSite(site.id);
  });

  it("refuses attach bodies that name no system or carry bad values", async () => {
    const site = await createSite(orgA.owner);
    for (const body of [
      {},
      { systemName: "Rooftop", capacity: "5" },
      { provider: "solis" },
      { systemId: systemA(0).id, capacity: "-2" },
      { systemId: systemA(0).id, colour: "red" },
      { provider: "acme", providerId: "1" },
    ]) {
      await expectFleetUnchanged(async () => {
        await expectError(
          await call(`/api/sites/${site.id}/systems`, { method: "POST", token: orgA.owner.token, body }),
          400,
        );
      });
    }
    await deleteSite(site.id);
  });
});

describe("roles", () => {
  it("lets a user read sites and available systems but change nothing", async () => {
    const site = await createSite(orgA.owner);
    for (const path of [
      "/api/sites",
      "/api/sites/enhanced",
      `/api/sites/${site.id}`,
      "/api/available-systems",
    ]) {
      await expectStatus(await call(path, { token: orgA.user.token }), 200);
    }
    const writes: Route[] = [
      { method: "POST", path: "/api/sites", body: sitePayload() },
      { method: "PATCH", path: `/api/sites/${site.id}`, body: { name: "Mine now" } },
      { method: "DELETE", path: `/api/sites/${site.id}` },
      { method: "POST", path: `/api/sites/${site.id}/systems`, body: { systemId: systemA(0).id } },
      { method: "DELETE", path: `/api/sites/${site.id}/systems/${systemA(0).id}` },
    ];
    await expectFleetUnchanged(async () => {
      for (const route of writes) {
        await expectError(
          await call(route.path, { method: route.method, token: orgA.user.token, body: route.body }),
          403,
        );
      }
    });
    await deleteSite(site.id);
  });

  it("lets an engineer manage sites like an owner", async () => {
    const site = await createSite(orgA.engineer);
    await attach(orgA.engineer, site.id, systemA(0).id);
    await expectStatus(
      await call(`/api/sites/${site.id}/systems/${systemA(0).id}`, {
        method: "DELETE",
        token: orgA.engineer.token,
      }),
      200,
    );
    await expectStatus(
      await call(`/api/sites/${site.id}`, { method: "DELETE", token: orgA.engineer.token }),
      200,
    );
  });
});

describe("tenant isolation", () => {
  it("answers 404 for every route aimed at another organisation's site or system, writing nothing", async () => {
    const siteA = await createSite(orgA.owner, { name: "A's own" });
    const bSystem = systemsB[0]?.id ?? "";
    const routes: Route[] = [
      { method: "GET", path: `/api/sites/${siteB.id}` },
      { method: "PATCH", path: `/api/sites/${siteB.id}`, body: { name: "Taken" } },
      { method: "DELETE", path: `/api/sites/${siteB.id}` },
      { method: "POST", path: `/api/sites/${siteB.id}/systems`, body: { systemId: systemA(0).id } },
      { method: "DELETE", path: `/api/sites/${siteB.id}/systems/${bSystem}` },
      { method: "POST", path: `/api/sites/${siteA.id}/systems`, body: { systemId: bSystem } },
      { method: "DELETE", path: `/api/sites/${siteA.id}/systems/${bSystem}` },
    ];
    await expectFleetUnchanged(async () => {
      for (const route of routes) {
        const res = await call(route.path, {
          method: route.method,
          token: orgA.owner.token,
          body: route.body,
        });
        await expectError(res, 404, /not found/);
      }
    });
    const bView = await expectStatus<EnhancedSite>(
      await call(`/api/sites/${siteB.id}`, { token: orgB.user.token }),
      200,
    );
    expect(bView).toMatchObject({ name: "B's site", systemCount: 1 });
    await deleteSite(siteA.id);
  });

  it("never mixes organisations in lists", async () => {
    const siteA = await createSite(orgA.owner, { name: "Only A" });
    const bSystemIds = new Set(systemsB.map((s) => s.id));
    for (const actor of [orgA.owner, orgA.user]) {
      const sites = await expectStatus<Site[]>(await call("/api/sites", { token: actor.token }), 200);
      expect(sites.map((s) => s.id)).toContain(siteA.id);
      expect(sites.map((s) => s.id)).not.toContain(siteB.id);
      const enhanced = await expectStatus<EnhancedSite[]>(
        await call("/api/sites/enhanced", { token: actor.token }),
        200,
      );
      expect(enhanced.map((s) => s.id)).not.toContain(siteB.id);
      expect(enhanced.flatMap((s) => s.systems).some((s) => bSystemIds.has(s.id))).toBe(false);
      const available = await availableSystems(actor);
      expect(available.some((s) => bSystemIds.has(s.id))).toBe(false);
    }
    const bSites = await expectStatus<Site[]>(await call("/api/sites", { token: orgB.owner.token }), 200);
    expect(bSites.map((s) => s.id)).toEqual([siteB.id]);
    await deleteSite(siteA.id);
  });
});

describe("authentication", () => {
  it("rejects missing, invalid and expired tokens on every site route", async () => {
    const site = await createSite(orgA.owner);
    const routes: Route[] = [
      { method: "GET", path: "/api/sites" },
      { method: "GET", path: "/api/sites/enhanced" },
      { method: "GET", path: `/api/sites/${site.id}` },
      { method: "POST", path: "/api/sites", body: sitePayload() },
      { method: "PATCH", path: `/api/sites/${site.id}`, body: { name: "x" } },
      { method: "DELETE", path: `/api/sites/${site.id}` },
      { method: "POST", path: `/api/sites/${site.id}/systems`, body: { systemId: systemA(0).id } },
      { method: "DELETE", path: `/api/sites/${site.id}/systems/${systemA(0).id}` },
      { method: "GET", path: "/api/available-systems" },
    ];
    for (const route of routes) await expectRejectsBadTokens(route, orgA.owner);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM sites WHERE id = ?")
      .bind(site.id)
      .first<{ n: number }>();
    expect(stored?.n).toBe(1);
    await deleteSite(site.id);
  });
});
