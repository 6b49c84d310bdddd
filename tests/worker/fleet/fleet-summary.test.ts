import { describe, expect, it } from "vitest";
import { fleetSummary } from "../../../worker/fleet/read-models/fleet-summary";
import { systemsIndex, systemsPage } from "../../../worker/fleet/read-models/systems-page";
import { makeMetric } from "../../web/dashboard-fixtures";

const NOW = Date.parse("2026-06-10T12:00:00.000Z");

describe("the fleet summary read model", () => {
  it("leaves meteronline out and counts no power, and so no efficiency, for stale systems", () => {
    const summary = fleetSummary(
      [
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
      ],
      NOW,
    );
    expect(summary).toMatchObject({
      systemCount: 3,
      excludedSystemCount: 1,
      generatedAt: "2026-06-10T12:00:00.000Z",
    });
    expect(summary.totals).toMatchObject({
      systemCount: 2,
      powerW: 1000,
      todayWh: 8000,
      // (10 % + the stale system's 0 %) / 2: its 20 % is of a power it no longer makes.
      meanEfficiencyPercent: 5,
    });
    // PR over the systems with an expectation only.
    expect(summary.totals.performanceRatio).toBeCloseTo(0.5);
    expect(summary.providers.find((row) => row.provider === "sma")).toEqual({
      provider: "sma",
      siteCount: 1,
      systemCount: 1,
      capacityKw: 10,
      powerW: 0,
    });
  });

  it("leaves a system without a capacity out of the mean efficiency rather than counting 0 %", () => {
    const mixed = fleetSummary(
      [
        makeMetric({ systemId: "rated", efficiency: 40 }),
        makeMetric({ systemId: "unrated", capacity: 0, efficiency: 0 }),
      ],
      NOW,
    );
    expect(mixed.totals.meanEfficiencyPercent).toBe(40);
    expect(
      fleetSummary([makeMetric({ capacity: 0, efficiency: 0 })], NOW).totals.meanEfficiencyPercent,
    ).toBeNull();
  });

  it("counts a provider's distinct sites, its newest data time, and no totals without systems", () => {
    const summary = fleetSummary(
      [
        makeMetric({ dataTime: "2026-06-10T11:50:00.000Z" }),
        makeMetric({ systemId: "x", siteId: "site-1", dataTime: "2026-06-10T11:55:00.000Z" }),
        makeMetric({ systemId: "y", siteId: null, dataTime: null }),
      ],
      NOW,
    );
    expect(summary.providers[0]).toMatchObject({ provider: "solis", siteCount: 1, systemCount: 3 });
    expect(summary.totals.dataTime).toBe("2026-06-10T11:55:00.000Z");
    const empty = fleetSummary([], NOW);
    expect(empty.totals).toEqual({
      systemCount: 0,
      todayWh: 0,
      powerW: 0,
      capacityKw: 0,
      meanEfficiencyPercent: null,
      performanceRatio: null,
      dataTime: null,
    });
    expect(empty.providers.map((row) => row.provider)).toEqual(["solis", "sma", "solax", "fronius"]);
    expect(empty.weatherPlace).toBeNull();
  });
});

describe("the systems page read model", () => {
  const page = (
    metrics: Parameters<typeof systemsIndex>[0],
    query: Partial<Parameters<typeof systemsPage>[1]>,
  ) =>
    systemsPage(systemsIndex(metrics), {
      page: 1,
      pageSize: 50,
      q: "",
      sort: "pr",
      direction: "asc",
      ...query,
    }).items.map((metric) => metric.stationName);

  it("sorts an unknown PR last in either direction", () => {
    const metrics = [
      makeMetric({ systemId: "a", stationName: "A", performanceRatio: null }),
      makeMetric({ systemId: "b", stationName: "B", performanceRatio: 0.95 }),
      makeMetric({ systemId: "c", stationName: "C", performanceRatio: 0.4 }),
    ];
    expect(page(metrics, { direction: "asc" })).toEqual(["C", "B", "A"]);
    expect(page(metrics, { direction: "desc" })).toEqual(["B", "C", "A"]);
  });

  it("orders names case- and accent-aware, numbers by value, equal names by system id", () => {
    const metrics = [
      makeMetric({ systemId: "s3", stationName: "roof 10" }),
      makeMetric({ systemId: "s2", stationName: "Émile" }),
      makeMetric({ systemId: "s1", stationName: "Roof 9" }),
      makeMetric({ systemId: "s0", stationName: "zeta" }),
      makeMetric({ systemId: "s5", stationName: "Dock" }),
      makeMetric({ systemId: "s4", stationName: "Dock" }),
    ];
    expect(page(metrics, { sort: "system" })).toEqual(["Dock", "Dock", "Émile", "Roof 9", "roof 10", "zeta"]);
    const ids = systemsPage(systemsIndex(metrics), {
      page: 1,
      pageSize: 2,
      q: "",
      sort: "system",
      direction: "asc",
    }).items.map((metric) => metric.systemId);
    expect(ids).toEqual(["s4", "s5"]);
  });

  it("breaks ties by name, so equal values page in a stable order", () => {
    const metrics = ["E", "C", "A", "D", "B"].map((name) =>
      makeMetric({ systemId: name, stationName: name, todayGenerationWh: 1000 }),
    );
    expect(page(metrics, { sort: "today", direction: "desc", pageSize: 2 })).toEqual(["A", "B"]);
    expect(page(metrics, { sort: "today", direction: "desc", pageSize: 2, page: 2 })).toEqual(["C", "D"]);
    expect(page(metrics, { sort: "today", direction: "desc", pageSize: 2, page: 3 })).toEqual(["E"]);
  });

  it("ranks status worst first and inverters by how many are online", () => {
    const metrics = [
      makeMetric({ systemId: "on", stationName: "On", status: "online" }),
      makeMetric({ systemId: "off", stationName: "Off", status: "offline", inverters: [] }),
      makeMetric({ systemId: "fault", stationName: "Fault", status: "fault" }),
      makeMetric({ systemId: "stale", stationName: "Stale", status: "stale" }),
    ];
    expect(page(metrics, { sort: "status" })).toEqual(["Fault", "Stale", "Off", "On"]);
    expect(page(metrics, { sort: "inverters", direction: "asc" })[0]).toBe("Off");
  });
});
