import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { OrgSettings } from "../../../schema/api/organization";
import type { EnhancedSite, Site, SitesFromSystems, SplitSite } from "../../../schema/api/sites";
import { runMaintenance } from "../../../worker/cron/maintenance";
import { availableSystems, connectProvider, createSite } from "../fleet-helpers";
import {
  auditLog,
  call,
  createOrg,
  entriesFor,
  expectError,
  expectRejectsBadTokens,
  expectStatus,
  type TestOrg,
  type TestUser,
} from "../helpers";

const sites = async (actor: TestUser) =>
  expectStatus<Site[]>(await call("/api/sites", { token: actor.token }), 200);
const site = async (actor: TestUser, id: string) =>
  expectStatus<EnhancedSite>(await call(`/api/sites/${id}`, { token: actor.token }), 200);
const fromSystems = (actor: TestUser, body: unknown) =>
  call("/api/sites/from-systems", { method: "POST", token: actor.token, body });
const setAuto = async (actor: TestUser, autoCreateSites: boolean) =>
  expectStatus<OrgSettings>(
    await call("/api/organization/settings", {
      method: "PATCH",
      token: actor.token,
      body: { autoCreateSites },
    }),
    200,
  );

/** A plant as a vendor without coordinates would leave it: inserted the way a sync writes it. */
async function insertPlant(
  orgId: string,
  fields: { name: string; address: string | null; latitude?: number; longitude?: number },
) {
  const id = crypto.randomUUID();
  const now = Date.now();
  await env.DB.prepare(
    `INSERT INTO monitoring_systems (id, org_id, provider, provider_system_id, name, address, latitude, longitude,
       capacity_w, state, created_at, updated_at) VALUES (?, ?, 'solis', ?, ?, ?, ?, ?, 4200, 'online', ?, ?)`,
  )
    .bind(
      id,
      orgId,
      `plant-${id}`,
      fields.name,
      fields.address,
      fields.latitude ?? null,
      fields.longitude ?? null,
      now,
      now,
    )
    .run();
  return id;
}

const siteIdOfSystem = async (systemId: string) =>
  (
    await env.DB.prepare("SELECT site_id FROM monitoring_systems WHERE id = ?")
      .bind(systemId)
      .first<{ site_id: string | null }>()
  )?.site_id ?? null;

describe("the organisation setting autoCreateSites", () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createOrg("Settings Co");
  });

  it("is on by default and readable by every member", async () => {
    expect(
      await expectStatus<OrgSettings>(
        await call("/api/organization/settings", { token: org.user.token }),
        200,
      ),
    ).toEqual({
      autoCreateSites: true,
    });
  });

  it("is changed by owners and engineers only, and audited", async () => {
    await expectError(
      await call("/api/organization/settings", {
        method: "PATCH",
        token: org.user.token,
        body: { autoCreateSites: false },
      }),
      403,
    );
    expect(await setAuto(org.engineer, false)).toEqual({ autoCreateSites: false });
    expect(await setAuto(org.owner, true)).toEqual({ autoCreateSites: true });
    expect(entriesFor(await auditLog(org.owner), "organization.settings_update")).toHaveLength(2);
  });

  it("answers 400 to bad input and changes nothing", async () => {
    await setAuto(org.owner, false);
    for (const body of [{}, { autoCreateSites: "yes" }, { autoCreateSites: true, other: 1 }]) {
      await expectError(
        await call("/api/organization/settings", { method: "PATCH", token: org.owner.token, body }),
        400,
      );
    }
    expect(
      await expectStatus<OrgSettings>(
        await call("/api/organization/settings", { token: org.owner.token }),
        200,
      ),
    ).toEqual({
      autoCreateSites: false,
    });
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens({ method: "GET", path: "/api/organization/settings" }, org.owner);
    await expectRejectsBadTokens({ method: "POST", path: "/api/sites/from-systems", body: {} }, org.owner);
  });
});

describe("plants with coordinates become sites when a sync stores them", () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createOrg("Auto Sites Co");
  });

  it("makes one site per plant at the vendor's coordinates, with its zone and capacity, and the plant attached", async () => {
    expect(await connectProvider(org.owner, "solis", { autoSites: true })).toEqual([]);
    const made = await sites(org.owner);
    expect(made).toHaveLength(3);
    for (const s of made) {
      const full = await site(org.owner, s.id);
      expect(full.systems).toHaveLength(1);
      const [system] = full.systems;
      expect(full.name).toBe(system?.systemName);
      expect(full.locationSource).toBe("vendor");
      expect(full.timezone).toMatch(/^[A-Za-z]+\/[A-Za-z_]+/);
      expect(full.capacitySource).toBe("systems");
      expect(full.capacity).toBe(system?.capacity ?? 0);
    }
    const entries = entriesFor(await auditLog(org.owner), "site.create_from_plant");
    expect(entries.map((e) => e.targetId).sort()).toEqual(made.map((s) => s.id).sort());
  });

  it("makes no second site on the next sync, and does not bring back a site the user deleted", async () => {
    const [first] = await sites(org.owner);
    await expectStatus(
      await call(`/api/sites/${first?.id}`, { method: "DELETE", token: org.owner.token }),
      200,
    );
    await expectStatus(
      await call("/api/providers/solis/sync", { method: "POST", token: org.owner.token }),
      200,
    );
    expect(await sites(org.owner)).toHaveLength(2);
    expect(await availableSystems(org.owner)).toHaveLength(1);
  });

  it("leaves the plants available while the setting is off", async () => {
    const off = await createOrg("Manual Sites Co");
    expect(await connectProvider(off.owner, "solis")).toHaveLength(3);
    expect(await sites(off.owner)).toEqual([]);
  });
});

describe("POST /api/sites/from-systems", () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createOrg("From Systems Co");
    other = await createOrg("Other From Systems Co");
    await connectProvider(org.owner, "solis");
  });

  it("gives every free plant a site and answers {created, sites}; a second call makes none", async () => {
    const answer = await expectStatus<SitesFromSystems>(await fromSystems(org.engineer, {}), 201);
    expect(answer.created).toBe(3);
    expect(answer.sites.map((s) => s.systems.length)).toEqual([1, 1, 1]);
    expect(answer.sites.every((s) => s.locationSource === "vendor")).toBe(true);
    expect(await availableSystems(org.owner)).toEqual([]);
    expect(await expectStatus<SitesFromSystems>(await fromSystems(org.engineer, {}), 200)).toEqual({
      created: 0,
      sites: [],
      skipped: [],
    });
  });

  it("geocodes a plant that has only an address", async () => {
    const systemId = await insertPlant(org.owner.orgId, {
      name: "Canal Roof",
      address: "Keizersgracht 123, Amsterdam",
    });
    const answer = await expectStatus<SitesFromSystems>(
      await fromSystems(org.owner, { systemIds: [systemId] }),
      201,
    );
    expect(answer.created).toBe(1);
    expect(answer.sites[0]).toMatchObject({
      name: "Canal Roof",
      address: "Keizersgracht 123, Amsterdam",
      latitude: 52.3752,
      longitude: 4.8862,
      city: "Amsterdam",
      timezone: "Europe/Amsterdam",
      locationSource: "geocoded",
      capacity: 4.2,
    });
    expect(await siteIdOfSystem(systemId)).toBe(answer.sites[0]?.id);
  });

  it("skips a plant with neither coordinates nor address, and one whose address finds no place", async () => {
    const nowhere = await insertPlant(org.owner.orgId, { name: "Nowhere", address: null });
    const unknown = await insertPlant(org.owner.orgId, {
      name: "Unknown",
      address: "__empty nowhere street",
    });
    const answer = await expectStatus<SitesFromSystems>(
      await fromSystems(org.owner, { systemIds: [nowhere, unknown] }),
      200,
    );
    expect(answer).toEqual({
      created: 0,
      sites: [],
      skipped: [
        { systemId: nowhere, reason: "no_location" },
        { systemId: unknown, reason: "address_not_found" },
      ],
    });
    expect(await siteIdOfSystem(nowhere)).toBeNull();
  });

  it("treats another organisation's plant as not available and changes nothing", async () => {
    const theirs = await insertPlant(other.owner.orgId, {
      name: "Theirs",
      address: null,
      latitude: 48.1,
      longitude: 11.5,
    });
    const answer = await expectStatus<SitesFromSystems>(
      await fromSystems(org.owner, { systemIds: [theirs] }),
      200,
    );
    expect(answer.skipped).toEqual([{ systemId: theirs, reason: "not_available" }]);
    expect(await siteIdOfSystem(theirs)).toBeNull();
    expect(await sites(other.owner)).toEqual([]);
  });

  it("is refused to a user and answers 400 to bad input", async () => {
    await expectError(await fromSystems(org.user, {}), 403);
    await expectError(await fromSystems(org.owner, { systemIds: [] }), 400);
    await expectError(await fromSystems(org.owner, { systemIds: "all" }), 400);
  });
});

describe("the maintenance cron geocodes plants that have only an address", () => {
  it("makes their sites while the setting is on, marks addresses not found, and leaves organisations with it off", async () => {
    const on = await createOrg("Cron On Co");
    const off = await createOrg("Cron Off Co");
    await setAuto(off.owner, false);
    const found = await insertPlant(on.owner.orgId, { name: "Milan Roof", address: "Milano" });
    const missing = await insertPlant(on.owner.orgId, { name: "Lost Roof", address: "__empty lost road" });
    const waiting = await insertPlant(off.owner.orgId, { name: "Off Roof", address: "Milano" });
    await runMaintenance({ env, now: Date.now() });
    const [made] = await sites(on.owner);
    expect(made).toMatchObject({ name: "Milan Roof", locationSource: "geocoded", timezone: "Europe/Rome" });
    expect(await siteIdOfSystem(found)).toBe(made?.id);
    // The new site's place has its weather's past at once (PR and losses need it), not an hour later.
    const key = `${made?.latitude?.toFixed(2)},${made?.longitude?.toFixed(2)}`;
    const hours = await env.DB.prepare(
      "SELECT count(*) AS n, min(hour_start) AS first FROM irradiance_hourly WHERE location_key = ?",
    )
      .bind(key)
      .first<{ n: number; first: number }>();
    expect(hours?.n).toBeGreaterThan(24 * 30);
    expect(hours?.first).toBeLessThanOrEqual(Date.now() - 30 * 86_400_000);
    expect(await siteIdOfSystem(missing)).toBeNull();
    const marked = await env.DB.prepare("SELECT auto_site_at FROM monitoring_systems WHERE id = ?")
      .bind(missing)
      .first<{ auto_site_at: number | null }>();
    expect(marked?.auto_site_at).not.toBeNull();
    expect(await siteIdOfSystem(waiting)).toBeNull();
    expect(await sites(off.owner)).toEqual([]);
  });
});

describe("merging and splitting sites", () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createOrg("Merge Co");
    other = await createOrg("Merge Other Co");
    await connectProvider(org.owner, "solis", { autoSites: true });
  });

  it("merges sites by moving their systems into one and removing the others", async () => {
    const [a, b, c] = await sites(org.owner);
    if (!a || !b || !c) throw new Error("three sites expected");
    const merged = await expectStatus<EnhancedSite>(
      await call(`/api/sites/${a.id}/merge`, {
        method: "POST",
        token: org.owner.token,
        body: { siteIds: [b.id, c.id] },
      }),
      200,
    );
    expect(merged.systems).toHaveLength(3);
    await expectError(await call(`/api/sites/${b.id}`, { token: org.owner.token }), 404);
    expect(await sites(org.owner)).toHaveLength(1);
    expect(entriesFor(await auditLog(org.owner), "site.merge")).toHaveLength(1);
  });

  it("refuses to merge a site into itself or another organisation's site, changing nothing", async () => {
    const [a] = await sites(org.owner);
    const theirs = await createSite(other.owner, { name: "Their site" });
    await expectError(
      await call(`/api/sites/${a?.id}/merge`, {
        method: "POST",
        token: org.owner.token,
        body: { siteIds: [a?.id] },
      }),
      400,
    );
    await expectError(
      await call(`/api/sites/${a?.id}/merge`, {
        method: "POST",
        token: org.owner.token,
        body: { siteIds: [theirs.id] },
      }),
      404,
    );
    expect((await site(other.owner, theirs.id)).id).toBe(theirs.id);
    expect((await site(org.owner, a?.id ?? "")).systems).toHaveLength(3);
  });

  it("splits systems out into sites of their own at the plants' coordinates", async () => {
    const [a] = await sites(org.owner);
    const full = await site(org.owner, a?.id ?? "");
    const moved = full.systems[2];
    const answer = await expectStatus<SplitSite>(
      await call(`/api/sites/${full.id}/split`, {
        method: "POST",
        token: org.owner.token,
        body: { systemIds: [moved?.id] },
      }),
      201,
    );
    expect(answer.site.systems.map((s) => s.id)).not.toContain(moved?.id);
    expect(answer.site.systems).toHaveLength(2);
    expect(answer.sites).toHaveLength(1);
    expect(answer.sites[0]?.systems.map((s) => s.id)).toEqual([moved?.id]);
    expect(answer.sites[0]?.locationSource).toBe("vendor");
    expect(answer.sites[0]?.name).toBe(moved?.systemName);
    // Without a list, every system but the first leaves.
    const rest = await expectStatus<SplitSite>(
      await call(`/api/sites/${full.id}/split`, { method: "POST", token: org.owner.token, body: {} }),
      201,
    );
    expect(rest.site.systems).toHaveLength(1);
    expect(await sites(org.owner)).toHaveLength(3);
  });

  it("answers 404 for a system not on the site and 400 when nothing would be split", async () => {
    const [a] = await sites(org.owner);
    const full = await site(org.owner, a?.id ?? "");
    await expectError(
      await call(`/api/sites/${full.id}/split`, {
        method: "POST",
        token: org.owner.token,
        body: { systemIds: ["nope"] },
      }),
      404,
    );
    await expectError(
      await call(`/api/sites/${full.id}/split`, { method: "POST", token: org.owner.token, body: {} }),
      400,
    );
    expect(await sites(org.owner)).toHaveLength(3);
  });
});
