import { describe, expect, it } from "vitest";
import { fleetTotals, providerTotals, sortSystems } from "../../web/components/dashboard/fleet";
import {
  energyBetweenWh,
  generationByProvider,
  yesterdaySameTimeWh,
} from "../../web/components/dashboard/generation-series";
import { localDate, localMidnightMs } from "../../web/components/dashboard/local-day";
import { skyLabel, uvLabel, weatherImpact } from "../../web/components/dashboard/weather-labels";
import { fallbackMetrics } from "../../web/lib/queries/metrics";
import { makeMetric } from "./dashboard-fixtures";

const at = (iso: string) => Date.parse(iso);

describe("weather labels (SPEC section 4)", () => {
  it.each([
    [0, "clearSky"],
    [29.9, "clearSky"],
    [30, "partlyCloudy"],
    [69, "partlyCloudy"],
    [70, "cloudy"],
    [100, "cloudy"],
  ])("cloud cover %s %% is %s", (cloudCover, label) => {
    expect(skyLabel(cloudCover)).toBe(label);
  });

  it.each([
    [0, "low"],
    [5.9, "low"],
    [6, "moderate"],
    [7.9, "moderate"],
    [8, "high"],
    [11, "high"],
  ])("UV %s is %s", (uv, label) => {
    expect(uvLabel(uv)).toBe(label);
  });

  it("reads no irradiance as no sunlight whatever the sky", () => {
    expect(weatherImpact({ cloudCover: 10, solarIrradiance: 0 })).toBe("night");
    expect(weatherImpact({ cloudCover: 10, solarIrradiance: 700 })).toBe("optimal");
    expect(weatherImpact({ cloudCover: 90, solarIrradiance: 80 })).toBe("heavy");
  });
});

describe("plant-local days", () => {
  it("finds midnight on a 23-hour DST day in a northern and a southern zone", () => {
    // Europe/London springs forward on 2026-03-29; Australia/Sydney falls back on 2026-04-05.
    expect(new Date(localMidnightMs(at("2026-03-29T15:00:00Z"), "Europe/London")).toISOString()).toBe(
      "2026-03-29T00:00:00.000Z",
    );
    expect(new Date(localMidnightMs(at("2026-03-30T15:00:00Z"), "Europe/London")).toISOString()).toBe(
      "2026-03-29T23:00:00.000Z",
    );
    expect(new Date(localMidnightMs(at("2026-04-05T05:00:00Z"), "Australia/Sydney")).toISOString()).toBe(
      "2026-04-04T13:00:00.000Z",
    );
    expect(localDate(at("2026-04-04T13:30:00Z"), "Australia/Sydney")).toBe("2026-04-05");
  });
});

describe("generation series", () => {
  it("integrates power by the trapezoid rule, clipped to the window, leaving gaps out", () => {
    const power = [
      { time: "2026-06-01T10:00:00Z", powerW: 1000 },
      { time: "2026-06-01T10:10:00Z", powerW: 2000 },
      // A 40-minute gap: no straight line across it.
      { time: "2026-06-01T10:50:00Z", powerW: 2000 },
      { time: "2026-06-01T10:55:00Z", powerW: null },
    ];
    expect(energyBetweenWh(power, at("2026-06-01T00:00:00Z"), at("2026-06-02T00:00:00Z"))).toBeCloseTo(250);
    expect(energyBetweenWh(power, at("2026-06-01T10:05:00Z"), at("2026-06-02T00:00:00Z"))).toBeCloseTo(
      145.833,
      2,
    );
  });

  it("takes yesterday's energy by this time from the stored day minus the rest of yesterday", () => {
    const now = at("2026-06-02T11:00:00Z");
    const series = {
      systemId: "sys-1",
      // Yesterday 11:00-12:00 UTC at a constant 3 kW is 3 kWh after "this time yesterday".
      power: Array.from({ length: 13 }, (_, index) => ({
        time: new Date(at("2026-06-01T11:00:00Z") + index * 5 * 60_000).toISOString(),
        powerW: 3000,
      })),
      energy: [{ date: "2026-06-01", energyWh: 20_000, expectedWh: null, performanceRatio: null }],
    };
    expect(yesterdaySameTimeWh(series, "UTC", now)).toBeCloseTo(17_000);
    expect(yesterdaySameTimeWh({ ...series, energy: [] }, "UTC", now)).toBeNull();
  });

  it("averages each system per 5-minute bucket and sums per provider", () => {
    const points = generationByProvider(
      [
        {
          provider: "solis",
          power: [
            { time: "2026-06-01T10:00:00Z", powerW: 1000 },
            { time: "2026-06-01T10:02:00Z", powerW: 3000 },
          ],
        },
        { provider: "solis", power: [{ time: "2026-06-01T10:01:00Z", powerW: 500 }] },
        { provider: "sma", power: [{ time: "2026-06-01T10:06:00Z", powerW: 700 }] },
        // Before the window: not today's.
        { provider: "sma", power: [{ time: "2026-05-31T23:55:00Z", powerW: 9999 }] },
      ],
      at("2026-06-01T00:00:00Z"),
      at("2026-06-01T12:00:00Z"),
    );
    expect(points).toEqual([
      { time: at("2026-06-01T10:00:00Z"), values: { solis: 2500 } },
      { time: at("2026-06-01T10:05:00Z"), values: { sma: 700 } },
    ]);
  });
});

describe("fleet totals", () => {
  it("leaves meteronline out and counts no power for stale systems", () => {
    const totals = fleetTotals([
      makeMetric({ currentPowerW: 1000, todayGenerationWh: 5000, efficiency: 10, expectedTodayWh: 10_000 }),
      makeMetric({
        systemId: "b",
        provider: "sma",
        currentPowerW: 700,
        stale: true,
        efficiency: 20,
        todayGenerationWh: 3000,
        expectedTodayWh: null,
      }),
      makeMetric({
        systemId: "c",
        provider: "meteronline",
        currentPowerW: 9000,
        todayGenerationWh: 90_000,
        efficiency: 90,
      }),
    ]);
    expect(totals).toMatchObject({ systemCount: 2, powerW: 1000, todayWh: 8000, meanEfficiency: 15 });
    expect(totals.performanceRatio).toBeCloseTo(0.5);
    expect(providerTotals([makeMetric(), makeMetric({ systemId: "x", siteId: "site-1" })])[0]).toMatchObject({
      provider: "solis",
      siteCount: 1,
      systemCount: 2,
    });
  });

  it("sorts an unknown PR last in either direction", () => {
    const metrics = [
      makeMetric({ systemId: "a", stationName: "A", performanceRatio: null }),
      makeMetric({ systemId: "b", stationName: "B", performanceRatio: 0.95 }),
      makeMetric({ systemId: "c", stationName: "C", performanceRatio: 0.4 }),
    ];
    expect(sortSystems(metrics, "pr", "asc").map((m) => m.stationName)).toEqual(["C", "B", "A"]);
    expect(sortSystems(metrics, "pr", "desc").map((m) => m.stationName)).toEqual(["B", "C", "A"]);
  });
});

describe("the metrics fallback (SPEC section 7)", () => {
  it("builds one solis entry with the generation in Wh when sites matched, else nothing", () => {
    const [entry] = fallbackMetrics({
      matchedSites: 3,
      totalCurrentPower: 4500,
      totalTodayGeneration: 12.345,
    });
    expect(entry).toMatchObject({ provider: "solis", currentPowerW: 4500, todayGenerationWh: 12_345 });
    expect(fallbackMetrics({ matchedSites: 0, totalCurrentPower: 0, totalTodayGeneration: 0 })).toEqual([]);
    expect(fallbackMetrics({ nonsense: true })).toEqual([]);
  });
});
