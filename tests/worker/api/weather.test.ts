import { describe, expect, it } from "vitest";
import { call, expectRejectsBadTokens, expectStatus, registerOwner } from "../helpers";

const sandboxCalls = async () =>
  (await (await fetch("http://sandbox.test/weather/__calls")).json()) as Record<string, number>;

describe("GET /api/weather/current", () => {
  it("answers current conditions with units and names its data source", async () => {
    const owner = await registerOwner();
    const weather = await expectStatus<Record<string, unknown>>(
      await call("/api/weather/current?lat=52.3676&lng=4.9041", { token: owner.token }),
      200,
    );
    expect(weather).toMatchObject({
      latitude: 52.37,
      longitude: 4.9,
      source: expect.stringContaining("Open-Meteo"),
    });
    for (const field of [
      "temperature",
      "cloudCover",
      "solarIrradiance",
      "windSpeed",
      "humidity",
      "uvIndex",
    ]) {
      expect(typeof weather[field], field).toBe("number");
    }
    expect(weather.cloudCover as number).toBeGreaterThanOrEqual(0);
    expect(weather.cloudCover as number).toBeLessThanOrEqual(100);
    expect(Date.parse(String(weather.time))).toBeGreaterThan(Date.now() - 3_600_000);
  });

  it("serves a second request for the same place from its 10-minute cache", async () => {
    const owner = await registerOwner();
    const before = (await sandboxCalls())["48.14,11.58"] ?? 0;
    await expectStatus(
      await call("/api/weather/current?lat=48.1351&lng=11.582", { token: owner.token }),
      200,
    );
    await expectStatus(
      await call("/api/weather/current?lat=48.1372&lng=11.5761", { token: owner.token }),
      200,
    );
    expect((await sandboxCalls())["48.14,11.58"]).toBe(before + 1);
  });

  it("refuses coordinates that are not numbers or out of range", async () => {
    const owner = await registerOwner();
    for (const query of [
      "lat=abc&lng=4",
      "lat=91&lng=4",
      "lat=52&lng=-181",
      "lat=52",
      "lat=52&lng=4&x=1",
      "lat=&lng=",
      "lat=52&lng=",
      "lat=%20&lng=4",
    ]) {
      const body = await expectStatus<{ error: string; details: unknown }>(
        await call(`/api/weather/current?${query}`, { token: owner.token }),
        400,
      );
      expect(body.error, query).toBe("Invalid input");
    }
  });

  it("answers 502 with a readable error when the weather service fails or rate-limits", async () => {
    const owner = await registerOwner();
    for (const lat of ["89.99", "-89.99"]) {
      const body = await expectStatus<{ error: string }>(
        await call(`/api/weather/current?lat=${lat}&lng=0`, { token: owner.token }),
        502,
      );
      expect(body.error).toMatch(/^Weather is unavailable/);
    }
  });

  it("needs a valid token", async () => {
    const owner = await registerOwner();
    await expectRejectsBadTokens({ method: "GET", path: "/api/weather/current?lat=1&lng=1" }, owner);
  });
});
