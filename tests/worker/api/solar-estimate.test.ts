import { beforeAll, describe, expect, it } from "vitest";
import type { YieldEstimateResponse } from "../../../schema/api/solar";
import {
  call,
  createOrg,
  createSuperAdmin,
  expectError,
  expectRejectsBadTokens,
  expectStatus,
  type TestOrg,
} from "../helpers";

let org: TestOrg;

beforeAll(async () => {
  org = await createOrg("Yield Co");
});

const estimate = (body: unknown, token = org.user.token) =>
  call("/api/solar/estimate-yield", { method: "POST", token, body });

/**
 * Published specific yields of fixed, optimally tilted systems (kWh per kWp per year) that the
 * estimate must stay within 15 % of: the Netherlands and Germany about 950-1000, Italy about
 * 1200, Arizona about 1500-1600.
 */
const REFERENCES = [
  { place: "Amsterdam", latitude: "52.3676", longitude: "4.9041", kwhPerKwp: 975 },
  { place: "Berlin", latitude: "52.52", longitude: "13.405", kwhPerKwp: 975 },
  { place: "Munich", latitude: "48.1351", longitude: "11.582", kwhPerKwp: 975 },
  { place: "Milan", latitude: "45.4642", longitude: "9.19", kwhPerKwp: 1200 },
  { place: "Rome", latitude: "41.9028", longitude: "12.4964", kwhPerKwp: 1200 },
  { place: "Phoenix", latitude: "33.4484", longitude: "-112.074", kwhPerKwp: 1550 },
];

describe("POST /api/solar/estimate-yield", () => {
  it.each(REFERENCES)(
    "estimates $place within 15 % of its published specific yield ($kwhPerKwp kWh/kWp)",
    async ({ latitude, longitude, kwhPerKwp }) => {
      const result = await expectStatus<YieldEstimateResponse>(
        await estimate({ latitude, longitude, capacity: "10" }),
        200,
      );
      const perKwp = result.annualYield / 10;
      expect(perKwp).toBeGreaterThanOrEqual(kwhPerKwp * 0.85);
      expect(perKwp).toBeLessThanOrEqual(kwhPerKwp * 1.15);
      expect(result.specificYield).toBeCloseTo(perKwp, -1);
      expect(result.monthlyAverage).toBeCloseTo(result.annualYield / 12, -1);
      expect(result.monthlyYield).toHaveLength(12);
    },
  );

  it("answers the client's fields with documented units", async () => {
    const result = await expectStatus<YieldEstimateResponse>(
      await estimate({ latitude: 52.3676, longitude: 4.9041, capacity: 100.5 }),
      200,
    );
    expect(result).toEqual({
      annualYield: expect.any(Number),
      monthlyAverage: expect.any(Number),
      monthlyYield: expect.any(Array),
      specificYield: expect.any(Number),
      peakSunHours: expect.any(Number),
      solarIrradiance: expect.any(Number),
      performanceRatio: expect.any(Number),
      tiltDeg: expect.any(Number),
      azimuthDeg: 180,
    });
    // Netherlands: about 2.8-3.1 kWh/m²/day on the ground, 3.2-3.6 sun hours on a tilted panel.
    expect(result.solarIrradiance).toBeGreaterThan(2.6);
    expect(result.solarIrradiance).toBeLessThan(3.3);
    expect(result.peakSunHours).toBeGreaterThan(result.solarIrradiance);
    expect(result.tiltDeg).toBeGreaterThan(30);
    expect(result.tiltDeg).toBeLessThan(45);
    // Summer months dominate in the north.
    const [jan, , , , , jun] = result.monthlyYield;
    expect(jun ?? 0).toBeGreaterThan((jan ?? 0) * 3);
  });

  it("faces the panels north in the southern hemisphere, where December is the best month", async () => {
    const result = await expectStatus<YieldEstimateResponse>(
      await estimate({ latitude: "-33.8688", longitude: "151.2093", capacity: "5" }),
      200,
    );
    expect(result.azimuthDeg).toBe(0);
    expect(result.monthlyYield[11] ?? 0).toBeGreaterThan(result.monthlyYield[5] ?? 0);
  });

  it("uses the array's tilt and azimuth, and clips at the AC limit", async () => {
    const base = { latitude: "41.9028", longitude: "12.4964", capacity: "10" };
    const optimal = await expectStatus<YieldEstimateResponse>(await estimate(base), 200);
    const northFacing = await expectStatus<YieldEstimateResponse>(
      await estimate({ ...base, tiltDeg: 35, azimuthDeg: 0 }),
      200,
    );
    expect(northFacing.annualYield).toBeLessThan(optimal.annualYield * 0.7);
    const clipped = await expectStatus<YieldEstimateResponse>(
      await estimate({ ...base, acLimitKw: "5" }),
      200,
    );
    expect(clipped.annualYield).toBeLessThan(optimal.annualYield * 0.95);
  });

  it("scales with the capacity", async () => {
    const one = await expectStatus<YieldEstimateResponse>(
      await estimate({ latitude: 33.4484, longitude: -112.074, capacity: 1 }),
      200,
    );
    const hundred = await expectStatus<YieldEstimateResponse>(
      await estimate({ latitude: 33.4484, longitude: -112.074, capacity: "100" }),
      200,
    );
    expect(hundred.annualYield / 100).toBeCloseTo(one.annualYield, -1);
  });

  it.each([
    ["a capacity of 0", { capacity: "0" }, "Capacity must be greater than 0"],
    ["a negative capacity", { capacity: -3 }, "Capacity must be greater than 0"],
    ["a non-numeric capacity", { capacity: "lots" }, "Capacity must be a number"],
    ["a latitude outside -90..90", { latitude: "-91" }, "Latitude must be between -90 and 90"],
    ["a longitude outside -180..180", { longitude: 200 }, "Longitude must be between -180 and 180"],
    ["a missing capacity", { capacity: undefined }, "Capacity is required"],
    ["an unknown field", { panels: 20 }, "Unrecognized key"],
  ])("refuses %s with 400 and the reason", async (_label, change, message) => {
    const body = { latitude: "52.37", longitude: "4.90", capacity: "10", ...change };
    const error = await expectError(await estimate(body), 400, "Invalid input");
    expect(JSON.stringify(error.details)).toContain(message);
  });

  it("refuses malformed JSON", async () => {
    await expectError(
      await call("/api/solar/estimate-yield", {
        method: "POST",
        token: org.owner.token,
        rawBody: "{latitude: 5",
      }),
      400,
    );
  });

  it("is open to every member of an organisation but not to accounts outside one", async () => {
    await expectStatus(await estimate({ latitude: 52, longitude: 5, capacity: 1 }, org.engineer.token), 200);
    const admin = await createSuperAdmin();
    await expectError(await estimate({ latitude: 52, longitude: 5, capacity: 1 }, admin.token), 403);
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens(
      {
        method: "POST",
        path: "/api/solar/estimate-yield",
        body: { latitude: 52, longitude: 5, capacity: 1 },
      },
      org.owner,
    );
  });
});
