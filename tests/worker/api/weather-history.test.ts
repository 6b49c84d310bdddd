import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { WeatherHistory } from "../../../schema/api/weather-history";
import { pvSystemOf } from "../../../worker/domain/solar/expectation";
import { expectedHourWh } from "../../../worker/domain/solar/pv-model";
import { createSite, seedHourlyRollups } from "../fleet-helpers";
import {
  call,
  expectError,
  expectRejectsBadTokens,
  expectStatus,
  registerOwner,
  type TestUser,
} from "../helpers";

const HOUR = 3_600_000;

/**
 * The expected power (the hour's mean, W) of systems of these capacities at a site's place, as the
 * one model gives it for an hour with the global irradiance only (stored without its parts): each
 * system at the latitude's tilt facing the equator, PVWatts' calibration until its days teach one.
 */
function expectedW(
  place: { latitude: number; longitude: number },
  capacities: number[],
  hourStart: number,
  ghi: number,
) {
  const hour = {
    hourStart,
    ghiWm2: ghi,
    directWm2: null,
    diffuseWm2: null,
    airC: null,
    windMs: null,
    precipitationMm: null,
  };
  return capacities.reduce((total, capacityW) => {
    const model = pvSystemOf(
      {
        capacityW,
        latitude: place.latitude,
        longitude: place.longitude,
        orientation: {
          system: { tiltDeg: null, azimuthDeg: null, acLimitKw: null, latitude: null },
          site: {
            tiltDeg: null,
            azimuthDeg: null,
            acLimitKw: null,
            latitude: place.latitude,
            systemCount: capacities.length,
          },
          invertersRatedW: null,
        },
      },
      null,
    );
    return total + (model ? expectedHourWh(model, hour) : 0);
  }, 0);
}

let systemCounter = 0;

/** A monitoring system straight in D1, attached to a site when one is given. */
async function insertSystem(orgId: string, siteId: string | null, capacityW: number | null) {
  const id = `sys-${++systemCounter}-${crypto.randomUUID()}`;
  await env.DB.prepare(
    `INSERT INTO monitoring_systems (id, org_id, provider, provider_system_id, name, capacity_w, state, created_at, updated_at, site_id)
     VALUES (?, ?, 'solis', ?, ?, ?, 'online', ?, ?, ?)`,
  )
    .bind(id, orgId, id, `System ${systemCounter}`, capacityW, Date.now(), Date.now(), siteId)
    .run();
  return id;
}

/** An hourly rollup in the organisation's fleet store. */
const insertPower = (systemId: string, hourStart: number, avgPowerW: number) =>
  seedHourlyRollups(systemId, [[hourStart, avgPowerW]]);

async function insertIrradiance(locationKey: string, hourStart: number, ghiWm2: number) {
  await env.DB.prepare("INSERT INTO irradiance_hourly (location_key, hour_start, ghi_wm2) VALUES (?, ?, ?)")
    .bind(locationKey, hourStart, ghiWm2)
    .run();
}

const historyOf = async (actor: TestUser, siteId: string, date: string) =>
  expectStatus<WeatherHistory>(
    await call(`/api/sites/${siteId}/weather-history?date=${date}`, { token: actor.token }),
    200,
  );

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe("GET /api/sites/:id/weather-history", () => {
  it("answers the 25 hours of the autumn DST day on the site's clock, power summed over its systems, expected from irradiance", async () => {
    const owner = await registerOwner();
    // Leeuwarden: Europe/Amsterdam, stored irradiance under "53.20,5.80".
    const site = await createSite(owner, {
      name: "Leeuwarden Barn",
      latitude: "53.2012",
      longitude: "5.7999",
    });
    expect(site.timezone).toBe("Europe/Amsterdam");
    const other = await createSite(owner, { name: "Elsewhere", latitude: "51.4416", longitude: "5.4697" });
    const east = await insertSystem(owner.orgId, site.id, 4000);
    const west = await insertSystem(owner.orgId, site.id, 6000);
    const elsewhere = await insertSystem(owner.orgId, other.id, 8000);
    const unattached = await insertSystem(owner.orgId, null, 8000);

    // 2026-10-25 runs from 00:00 CEST (22:00 UTC the day before) to 00:00 CET (23:00 UTC).
    const start = Date.parse("2026-10-24T22:00:00Z");
    const end = Date.parse("2026-10-25T23:00:00Z");
    const ghi = new Map<number, number>();
    const power = new Map<number, number>();
    for (let i = 0; i < 25; i++) {
      const hour = start + i * HOUR;
      // Irradiance from 08:00 to 17:00 UTC; power from 09:00 to 16:00 UTC, so one hour has
      // irradiance without power and none the reverse; 18:00 UTC has power without irradiance.
      if (i >= 10 && i <= 19) {
        ghi.set(hour, 40 * (i - 9));
        await insertIrradiance("53.20,5.80", hour, 40 * (i - 9));
      }
      if ((i >= 11 && i <= 18) || i === 20) {
        await insertPower(east, hour, 100 * i);
        await insertPower(west, hour, 150 * i);
        power.set(hour, 250 * i);
      }
      // Neither another site's system, an unattached one nor another location counts.
      await insertPower(elsewhere, hour, 7777);
      await insertPower(unattached, hour, 5555);
      await insertIrradiance("51.44,5.47", hour, 999);
    }
    // Hours either side of the day stay out.
    await insertIrradiance("53.20,5.80", start - HOUR, 500);
    await insertIrradiance("53.20,5.80", end, 500);
    await insertPower(east, start - HOUR, 1234);
    await insertPower(east, end, 1234);

    const history = await historyOf(owner, site.id, "2026-10-25");
    const leeuwarden = { latitude: 53.2012, longitude: 5.7999 };
    expect(history).toMatchObject({
      siteId: site.id,
      systemId: null,
      name: "Leeuwarden Barn",
      timezone: "Europe/Amsterdam",
      date: "2026-10-25",
      capacityW: 10_000,
      systemCount: 2,
      source: "Weather data by Open-Meteo.com (CC BY 4.0)",
    });
    expect(history.hours).toHaveLength(25);
    expect(history.hours[0]?.time).toBe("2026-10-24T22:00:00.000Z");
    // 02:00 happens twice: in summer time, then in winter time.
    expect(history.hours[2]?.time).toBe("2026-10-25T00:00:00.000Z");
    expect(history.hours[3]?.time).toBe("2026-10-25T01:00:00.000Z");
    expect(history.hours.at(-1)?.time).toBe("2026-10-25T22:00:00.000Z");

    for (const [i, hour] of history.hours.entries()) {
      const at = start + i * HOUR;
      const g = ghi.get(at) ?? null;
      const p = power.get(at) ?? null;
      expect(hour.time, `hour ${i}`).toBe(new Date(at).toISOString());
      expect(hour.irradianceWm2, `irradiance at hour ${i}`).toBe(g);
      expect(hour.powerW, `power at hour ${i}`).toBe(p);
      expect(hour.expectedPowerW, `expected at hour ${i}`).toBe(
        g === null ? null : Math.round(expectedW(leeuwarden, [4000, 6000], at, g)),
      );
    }
    // Noon UTC: 200 W/m² on the tilted 10 kW, and 250 × 14 W from the two systems.
    const noon = history.hours[14];
    expect(noon).toMatchObject({ time: "2026-10-25T12:00:00.000Z", irradianceWm2: 200, powerW: 3500 });
    // A tilted plane facing south takes in more than the horizontal at Leeuwarden's low October sun.
    expect(noon?.expectedPowerW).toBeGreaterThan(10_000 * (200 / 1000) * 0.83);

    const ghis = [...ghi.values()];
    const bothHours = [...power.keys()].filter((hour) => ghi.has(hour));
    const actualBoth = sum(bothHours.map((hour) => power.get(hour) ?? 0));
    const expectedBoth = sum(
      bothHours.map((hour) => expectedW(leeuwarden, [4000, 6000], hour, ghi.get(hour) ?? 0)),
    );
    expect(history.totals.through).toBe("2026-10-25T23:00:00.000Z");
    expect(history.totals.irradiationWhM2).toBe(sum(ghis));
    expect(history.totals.energyWh).toBe(sum([...power.values()]));
    expect(history.totals.expectedWh).toBe(
      Math.round(sum([...ghi.entries()].map(([hour, g]) => expectedW(leeuwarden, [4000, 6000], hour, g)))),
    );
    expect(history.totals.performanceRatio).toBeCloseTo(actualBoth / expectedBoth, 3);
    expect(history.totals.performanceRatio).not.toBeCloseTo(
      (history.totals.energyWh ?? 0) / (history.totals.expectedWh ?? 1),
      3,
    );
  });

  it("answers 23 hours on the spring DST day and empty hours for a day nothing was kept", async () => {
    const owner = await registerOwner();
    const site = await createSite(owner, { latitude: "52.0907", longitude: "5.1214" });
    const spring = await historyOf(owner, site.id, "2026-03-29");
    expect(spring.hours).toHaveLength(23);
    expect(spring.hours[0]?.time).toBe("2026-03-28T23:00:00.000Z");
    expect(spring.hours.at(-1)?.time).toBe("2026-03-29T21:00:00.000Z");
    expect(spring.hours.every((h) => h.irradianceWm2 === null && h.powerW === null)).toBe(true);
    expect(spring.systemCount).toBe(0);
    // No systems and no manual capacity: nothing to expect from.
    expect(spring.capacityW).toBeNull();
    expect(spring.totals).toEqual({
      through: "2026-03-29T22:00:00.000Z",
      irradiationWhM2: null,
      energyWh: null,
      expectedWh: null,
      performanceRatio: null,
    });
  });

  it("expects from a site's manual capacity, which wins over its systems' sum", async () => {
    const owner = await registerOwner();
    const site = await createSite(owner, { latitude: "52.5168", longitude: "6.0830", capacity: "20" });
    await insertSystem(owner.orgId, site.id, 4000);
    const hour = Date.parse("2026-11-01T11:00:00Z");
    await insertIrradiance("52.52,6.08", hour, 300);
    const history = await historyOf(owner, site.id, "2026-11-01");
    expect(history.capacityW).toBe(20_000);
    const noon = history.hours.find((h) => h.time === "2026-11-01T11:00:00.000Z");
    expect(noon).toEqual({
      time: "2026-11-01T11:00:00.000Z",
      irradianceWm2: 300,
      powerW: null,
      // The one 4 kW system's model, scaled to the site's 20 kW.
      expectedPowerW: Math.round(expectedW({ latitude: 52.5168, longitude: 6.083 }, [20_000], hour, 300)),
    });
  });

  it("totals today only over the hours that have finished", async () => {
    const owner = await registerOwner();
    const site = await createSite(owner, { latitude: "50.8503", longitude: "4.3517" });
    expect(site.timezone).toBe("Europe/Brussels");
    const system = await insertSystem(owner.orgId, site.id, 5000);
    const now = Date.now();
    const currentHour = Math.floor(now / HOUR) * HOUR;
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Brussels" }).format(now);
    await insertPower(system, currentHour, 2000);

    const history = await historyOf(owner, site.id, today);
    expect(history.hours.find((h) => h.time === new Date(currentHour).toISOString())?.powerW).toBe(2000);
    // The hour in progress has a mean so far, not its energy.
    expect(history.totals.energyWh).toBeNull();
    const firstHour = Date.parse(history.hours[0]?.time ?? "");
    expect(history.totals.through).toBe(currentHour > firstHour ? new Date(currentHour).toISOString() : null);
  });

  it("answers 404 for a site of another organisation or no site at all", async () => {
    const owner = await registerOwner();
    const stranger = await registerOwner("Other Solar");
    const site = await createSite(owner);
    await expectError(
      await call(`/api/sites/${site.id}/weather-history?date=2026-10-25`, { token: stranger.token }),
      404,
      "Site not found",
    );
    await expectError(
      await call("/api/sites/no-such-site/weather-history?date=2026-10-25", { token: owner.token }),
      404,
      "Site not found",
    );
  });

  it("answers 400 with details for a date that is not a calendar day", async () => {
    const owner = await registerOwner();
    const site = await createSite(owner);
    for (const query of [
      "date=2026-02-30",
      "date=2026-13-01",
      "date=25-10-2026",
      "date=",
      "",
      "date=2026-10-25&x=1",
    ]) {
      const body = await expectError(
        await call(`/api/sites/${site.id}/weather-history?${query}`, { token: owner.token }),
        400,
        "Invalid input",
      );
      expect(Array.isArray(body.details), query).toBe(true);
    }
  });

  it("needs a valid token", async () => {
    const owner = await registerOwner();
    const site = await createSite(owner);
    await expectRejectsBadTokens(
      { method: "GET", path: `/api/sites/${site.id}/weather-history?date=2026-10-25` },
      owner,
    );
  });
});

describe("GET /api/systems/:id/weather-history", () => {
  it("answers one plant without a site at its own coordinates, zone and capacity", async () => {
    const owner = await registerOwner();
    // A plant in Leeuwarden with no site; another plant's power and another place's irradiance stay out.
    const plant = await insertSystem(owner.orgId, null, 5000);
    const neighbour = await insertSystem(owner.orgId, null, 5000);
    await env.DB.prepare(
      "UPDATE monitoring_systems SET latitude = 53.2012, longitude = 5.7999, timezone = 'Europe/Amsterdam' WHERE id = ?",
    )
      .bind(plant)
      .run();
    const noon = Date.parse("2026-06-10T10:00:00Z");
    await insertIrradiance("53.20,5.80", noon, 600);
    await insertIrradiance("51.44,5.47", noon, 999);
    await insertPower(plant, noon, 2400);
    await insertPower(neighbour, noon, 7777);

    const history = await expectStatus<WeatherHistory>(
      await call(`/api/systems/${plant}/weather-history?date=2026-06-10`, { token: owner.token }),
      200,
    );
    expect(history).toMatchObject({
      siteId: null,
      systemId: plant,
      timezone: "Europe/Amsterdam",
      date: "2026-06-10",
      capacityW: 5000,
      systemCount: 1,
    });
    expect(history.name).toMatch(/^System \d+$/);
    // The Amsterdam day starts at 22:00 UTC the day before: noon UTC is its 12th hour.
    expect(history.hours).toHaveLength(24);
    expect(history.hours[12]).toEqual({
      time: "2026-06-10T10:00:00.000Z",
      irradianceWm2: 600,
      powerW: 2400,
      expectedPowerW: Math.round(expectedW({ latitude: 53.2012, longitude: 5.7999 }, [5000], noon, 600)),
    });
    expect(history.hours.filter((hour) => hour.irradianceWm2 !== null)).toHaveLength(1);
    expect(history.hours.filter((hour) => hour.powerW !== null)).toHaveLength(1);
  });

  it("reads a plant on a site at the site's place and zone", async () => {
    const owner = await registerOwner();
    const site = await createSite(owner, { name: "Eindhoven", latitude: "51.4416", longitude: "5.4697" });
    const plant = await insertSystem(owner.orgId, site.id, 3000);
    const hour = Date.parse("2026-06-12T10:00:00Z");
    await insertIrradiance("51.44,5.47", hour, 500);
    const history = await expectStatus<WeatherHistory>(
      await call(`/api/systems/${plant}/weather-history?date=2026-06-12`, { token: owner.token }),
      200,
    );
    expect(history).toMatchObject({
      siteId: null,
      systemId: plant,
      timezone: "Europe/Amsterdam",
      capacityW: 3000,
    });
    expect(history.hours.find((h) => h.time === "2026-06-12T10:00:00.000Z")?.irradianceWm2).toBe(500);
  });

  it("answers a plant without any place in UTC without irradiance", async () => {
    const owner = await registerOwner();
    const plant = await insertSystem(owner.orgId, null, null);
    const history = await expectStatus<WeatherHistory>(
      await call(`/api/systems/${plant}/weather-history?date=2026-06-10`, { token: owner.token }),
      200,
    );
    expect(history).toMatchObject({ timezone: "UTC", capacityW: null });
    expect(history.hours.every((h) => h.irradianceWm2 === null && h.expectedPowerW === null)).toBe(true);
  });

  it("answers 404 for another organisation's system, 400 for a bad day, and needs a valid token", async () => {
    const owner = await registerOwner();
    const stranger = await registerOwner("Other Solar");
    const plant = await insertSystem(owner.orgId, null, 1000);
    await expectError(
      await call(`/api/systems/${plant}/weather-history?date=2026-06-10`, { token: stranger.token }),
      404,
      "System not found",
    );
    await expectError(
      await call(`/api/systems/${plant}/weather-history?date=2026-02-30`, { token: owner.token }),
      400,
      "Invalid input",
    );
    await expectRejectsBadTokens(
      { method: "GET", path: `/api/systems/${plant}/weather-history?date=2026-06-10` },
      owner,
    );
  });
});
