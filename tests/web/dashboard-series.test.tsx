import { describe, expect, it } from "vitest";
import { fleetTotals, providerTotals, sortSystems } from "../../web/components/dashboard/fleet";
import { generationChartData } from "../../web/components/dashboard/generation-series";
import { localDate } from "../../web/components/dashboard/local-day";
import { fallbackMetrics } from "../../web/lib/queries/metrics";
import { makeMetric } from "./dashboard-fixtures";

describe("plant-local days", () => {
  it("dates an instant in the site's zone, not the viewer's", () => {
    // 13:30 UTC on 4 April is already 5 April in Sydney.
    expect(localDate(Date.parse("2026-04-04T13:30:00Z"), "Australia/Sydney")).toBe("2026-04-05");
    expect(localDate(Date.parse("2026-04-04T13:30:00Z"), "America/New_York")).toBe("2026-04-04");
  });
});

describe("the generation chart's rows", () => {
  const hours = [
    { time: "2026-06-10T06:00:00.000Z", values: { fronius: 300, solis: 1200 } },
    { time: "2026-06-10T07:00:00.000Z", values: { solis: 2500 } },
  ];

  it("stacks the providers present in the summary's order, a silent provider at 0 W", () => {
    const { providers, rows } = generationChartData(hours, "en-GB", "UTC");
    expect(providers).toEqual(["solis", "fronius"]);
    expect(rows).toEqual([
      { time: "06:00", Solis: 1200, Fronius: 300 },
      { time: "07:00", Solis: 2500, Fronius: 0 },
    ]);
  });

  it("labels each hour in the viewer's zone", () => {
    expect(generationChartData(hours, "en-GB", "Europe/Amsterdam").rows.map((row) => row.time)).toEqual([
      "08:00",
      "09:00",
    ]);
    // Kolkata is UTC+05:30: the UTC hours fall on the half hour there.
    expect(generationChartData(hours, "en-GB", "Asia/Kolkata").rows.map((row) => row.time)).toEqual([
      "11:30",
      "12:30",
    ]);
  });

  it("has no rows or providers before the first hour of the day", () => {
    expect(generationChartData([], "en-GB", "UTC")).toEqual({ providers: [], rows: [] });
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
