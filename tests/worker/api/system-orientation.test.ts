import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { AvailableSystem, EnhancedSite } from "../../../schema/api/sites";
import type { SystemDetail } from "../../../schema/api/systems";
import { equatorFacingAzimuthDeg, optimalTiltDeg } from "../../../worker/domain/solar/yield";
import { attach, connectProvider, createSite } from "../fleet-helpers";
import {
  auditLog,
  call,
  createOrg,
  entriesFor,
  expectError,
  expectStatus,
  type TestOrg,
  type TestUser,
} from "../helpers";

let orgA: TestOrg;
let orgB: TestOrg;
let systemsA: AvailableSystem[];
let systemsB: AvailableSystem[];

const patch = (actor: TestUser, systemId: string, body: unknown) =>
  call(`/api/systems/${systemId}`, { method: "PATCH", token: actor.token, body });

const stored = (systemId: string) =>
  env.DB.prepare("SELECT tilt_deg, azimuth_deg, ac_limit_kw, updated_at FROM monitoring_systems WHERE id = ?")
    .bind(systemId)
    .first();

const systemOf = (systems: AvailableSystem[], index: number) => {
  const system = systems[index];
  if (!system) throw new Error(`no system ${index}`);
  return system;
};

beforeAll(async () => {
  orgA = await createOrg("Orientation A");
  orgB = await createOrg("Orientation B");
  systemsA = await connectProvider(orgA.owner, "solis");
  systemsB = await connectProvider(orgB.owner, "solis");
});

describe("PATCH /api/systems/{id}", () => {
  it("stores tilt, azimuth and AC limit on the system and answers them as effective", async () => {
    const system = systemOf(systemsA, 0);
    const detail = await expectStatus<SystemDetail>(
      await patch(orgA.engineer, system.id, { tiltDeg: 30, azimuthDeg: "135", acLimitKw: 4.6 }),
      200,
    );
    expect(detail).toMatchObject({ id: system.id, name: system.name, siteId: null });
    expect(detail.orientation).toEqual({
      tiltDeg: 30,
      azimuthDeg: 135,
      acLimitKw: 4.6,
      effective: {
        tiltDeg: 30,
        tiltSource: "system",
        azimuthDeg: 135,
        azimuthSource: "system",
        acLimitKw: 4.6,
        acLimitSource: "system",
      },
    });
    expect(await stored(system.id)).toMatchObject({ tilt_deg: 30, azimuth_deg: 135, ac_limit_kw: 4.6 });
    expect(entriesFor(await auditLog(orgA.owner), "system.update")[0]).toMatchObject({
      targetId: system.id,
      details: { tiltDeg: 30, azimuthDeg: 135, acLimitKw: 4.6 },
    });

    // A field left out stays; null clears one, and the default applies again.
    const cleared = await expectStatus<SystemDetail>(
      await patch(orgA.owner, system.id, { tiltDeg: null }),
      200,
    );
    expect(cleared.orientation).toMatchObject({ tiltDeg: null, azimuthDeg: 135, acLimitKw: 4.6 });
    if (system.latitude !== null) {
      expect(cleared.orientation.effective).toMatchObject({
        tiltDeg: Math.round(optimalTiltDeg(system.latitude) * 10) / 10,
        tiltSource: "default",
      });
    }
  });

  it("defaults tilt from the latitude and azimuth to the equator, or takes the site's", async () => {
    const system = systemOf(systemsA, 1);
    const site = await createSite(orgA.owner, { name: "Oriented", tiltDeg: "25", azimuthDeg: "200" });
    const before = await expectStatus<SystemDetail>(
      await patch(orgA.owner, system.id, { acLimitKw: 8 }),
      200,
    );
    const latitude = system.latitude;
    expect(latitude).not.toBeNull();
    if (latitude === null) return;
    expect(before.orientation.effective).toMatchObject({
      tiltDeg: Math.round(optimalTiltDeg(latitude) * 10) / 10,
      tiltSource: "default",
      azimuthDeg: equatorFacingAzimuthDeg(latitude),
      azimuthSource: "default",
    });
    // Attached, the site's orientation applies where the system has none, and the site's answer shows it.
    const attached = (await attach(orgA.owner, site.id, system.id)).site;
    const listed = attached.systems.find((s) => s.id === system.id);
    expect(listed?.orientation).toEqual({
      tiltDeg: null,
      azimuthDeg: null,
      acLimitKw: 8,
      effective: {
        tiltDeg: 25,
        tiltSource: "site",
        azimuthDeg: 200,
        azimuthSource: "site",
        acLimitKw: 8,
        acLimitSource: "system",
      },
    });
    const own = await expectStatus<SystemDetail>(
      await patch(orgA.owner, system.id, { azimuthDeg: 180 }),
      200,
    );
    expect(own.orientation.effective).toMatchObject({
      azimuthDeg: 180,
      azimuthSource: "system",
      tiltSource: "site",
    });
    const read = await expectStatus<EnhancedSite>(
      await call(`/api/sites/${site.id}`, { token: orgA.user.token }),
      200,
    );
    expect(read.systems[0]?.orientation.effective).toMatchObject({ azimuthDeg: 180, tiltDeg: 25 });
  });

  it("takes the AC limit of a one-system site, else the inverters' ratings", async () => {
    const system = systemOf(systemsA, 2);
    const site = await createSite(orgA.owner, { name: "Limited", acLimitKw: "3.3" });
    const attached = (await attach(orgA.owner, site.id, system.id)).site;
    expect(attached.systems[0]?.orientation.effective).toMatchObject({
      acLimitKw: 3.3,
      acLimitSource: "site",
    });
    const rated = await env.DB.prepare(
      "SELECT count(*) AS n, count(rated_power_w) AS rated, sum(rated_power_w) AS w FROM inverters WHERE system_id = ?",
    )
      .bind(system.id)
      .first<{ n: number; rated: number; w: number | null }>();
    // Once the site holds a second system its limit is no longer this system's.
    await attach(orgA.owner, site.id, systemOf(systemsA, 0).id);
    const read = await expectStatus<EnhancedSite>(
      await call(`/api/sites/${site.id}`, { token: orgA.user.token }),
      200,
    );
    const effective = read.systems.find((s) => s.id === system.id)?.orientation.effective;
    // The sandbox's Solis inverters each report their rated power.
    expect(rated?.n).toBeGreaterThan(0);
    expect(rated?.rated).toBe(rated?.n);
    expect(effective).toMatchObject({ acLimitKw: (rated?.w ?? 0) / 1000, acLimitSource: "inverters" });
  });

  it.each([
    ["a tilt above 90°", { tiltDeg: 91 }, "tiltDeg"],
    ["a negative tilt", { tiltDeg: -1 }, "tiltDeg"],
    ["an azimuth above 360°", { azimuthDeg: 361 }, "azimuthDeg"],
    ["a negative azimuth", { azimuthDeg: -5 }, "azimuthDeg"],
    ["an AC limit of 0", { acLimitKw: 0 }, "acLimitKw"],
    ["a tilt that is not a number", { tiltDeg: "steep" }, "tiltDeg"],
  ])("refuses %s with 400 validation_failed, changing nothing", async (_case, body, field) => {
    const system = systemOf(systemsA, 0);
    const before = await stored(system.id);
    const error = await expectError(await patch(orgA.owner, system.id, body), 400);
    expect(error.code).toBe("validation_failed");
    if (error.code === "validation_failed") expect(error.details.map((i) => i.path)).toContainEqual([field]);
    expect(await stored(system.id)).toEqual(before);
  });

  it("refuses an empty change and unknown fields", async () => {
    const system = systemOf(systemsA, 0);
    for (const body of [{}, { tiltDeg: 20, name: "Renamed" }]) {
      expect((await expectError(await patch(orgA.owner, system.id, body), 400)).code).toBe(
        "validation_failed",
      );
    }
  });

  it("answers 404 for another organisation's system and refuses plain members, changing nothing", async () => {
    const theirs = systemOf(systemsB, 0);
    const before = await stored(theirs.id);
    const error = await expectError(await patch(orgA.owner, theirs.id, { tiltDeg: 10 }), 404);
    expect(error).toMatchObject({ code: "not_found", details: { resource: "system" } });
    expect(await stored(theirs.id)).toEqual(before);
    const mine = systemOf(systemsA, 0);
    const mineBefore = await stored(mine.id);
    expect((await expectError(await patch(orgA.user, mine.id, { tiltDeg: 10 }), 403)).code).toBe("forbidden");
    expect(await stored(mine.id)).toEqual(mineBefore);
  });
});
