import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { AnalyticsRecord } from "../../schema/api/analytics";
import {
  capacityFactorPercent,
  co2AvoidedKg,
  energyYieldKwhPerKw,
  rangeEnergyWh,
  rangePerformanceRatio,
  stateLabel,
  treesEquivalent,
} from "../../web/components/analytics/metrics";
import { idFromPath } from "../../web/pages/app/site-analytics";
import { makeSummary } from "./dashboard-fixtures";
import { makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";

/** An analytics record in the server's shape (schema/api/analytics.ts). */
function makeRecord(overrides: Partial<AnalyticsRecord> = {}): AnalyticsRecord {
  return {
    provider: "solis",
    stationName: "Warehouse Roof",
    systemName: "Warehouse Roof",
    siteName: "Amsterdam Depot",
    systemId: "sys-1",
    siteId: "site-1",
    id: "sys-1",
    providerId: "1298491919448889001",
    currentPowerW: 4000,
    todayGenerationWh: 36_000,
    capacity: 10,
    efficiency: 40,
    performanceRatio: 0.84,
    state: 1,
    status: "online",
    inverterCount: 3,
    inverterStates: [
      { sn: "SN-ONLINE-1", state: 1, pac: 2500, etodayKWh: 20.5, inverterTemperature: 41.2 },
      { sn: "SN-ALARM-3", state: 3, pac: 1500, etodayKWh: 15.5, inverterTemperature: 58 },
      { sn: "SN-OFF-2", state: 2, pac: 0, etodayKWh: 0, inverterTemperature: null },
    ],
    location: { address: "Keizersgracht 123", latitude: 52.37, longitude: 4.88 },
    timezone: "Europe/Amsterdam",
    lastUpdated: "2026-06-01T10:15:00.000Z",
    error: null,
    ...overrides,
  };
}

const week = [
  { date: "2026-05-26", energyWh: 10_000, expectedWh: 12_500, performanceRatio: 0.8 },
  { date: "2026-05-27", energyWh: 20_000, expectedWh: 25_000, performanceRatio: 0.8 },
  { date: "2026-05-28", energyWh: null, expectedWh: 20_000, performanceRatio: null },
  { date: "2026-05-29", energyWh: 30_000, expectedWh: 31_250, performanceRatio: 0.96 },
  { date: "2026-05-30", energyWh: 15_000, expectedWh: null, performanceRatio: null },
  { date: "2026-05-31", energyWh: 25_000, expectedWh: 25_000, performanceRatio: 1 },
  { date: "2026-06-01", energyWh: 0, expectedWh: 6_250, performanceRatio: 0 },
];

function withSeries(range: "24h" | "7d" | "30d" | "1y", overrides: Partial<AnalyticsRecord> = {}) {
  return makeRecord({
    series: {
      range,
      power: [
        { time: "2026-06-01T08:00:00.000Z", powerW: 1200 },
        { time: "2026-06-01T08:05:00.000Z", powerW: null },
        { time: "2026-06-01T08:10:00.000Z", powerW: 4000 },
      ],
      energy: week,
    },
    ...overrides,
  });
}

const list = [
  makeRecord(),
  makeRecord({
    provider: "fronius",
    stationName: "School Gym",
    systemName: "School Gym",
    siteName: null,
    systemId: "sys-2",
    id: "sys-2",
    siteId: null,
    currentPowerW: 640,
    todayGenerationWh: 950,
    capacity: 5,
    efficiency: 12.8,
    performanceRatio: null,
    status: "fault",
    lastUpdated: null,
  }),
  makeRecord({
    provider: "meteronline",
    stationName: "Farm Import",
    systemName: "Farm Import",
    systemId: "sys-3",
    id: "sys-3",
    currentPowerW: 100_000,
    todayGenerationWh: 500_000,
    capacity: 200,
    efficiency: 50,
  }),
];

/** The API's summary of the list's fleet: Warehouse Roof and School Gym; the Meteronline import not counted. */
const fleetTotals = makeSummary({
  systemCount: 3,
  excludedSystemCount: 1,
  totals: { systemCount: 2, powerW: 4640, todayWh: 37_000, capacityKw: 15, meanEfficiencyPercent: 37.5 },
});

function openAt(path: string, handlers: Parameters<typeof mockApi>[0]) {
  const profile = makeProfile();
  storeSession(profile);
  const api = mockApi({
    ...signedInApi(profile),
    "GET /api/sites": { body: [] },
    "GET /api/dashboard/summary": { body: fleetTotals },
    ...handlers,
  });
  return { ...api, ...renderApp(path) };
}

/** Answers the detail with the record for `?system=sys-1`, echoing the range asked for. */
function detailHandler(overrides: Partial<AnalyticsRecord> = {}) {
  return ({ url }: { url: string }) => {
    const params = new URL(url, "http://localhost").searchParams;
    if (params.get("system") === "all") return { body: list };
    if (params.get("system") !== "sys-1") return { status: 404, body: { error: "System not found" } };
    const range = (params.get("range") ?? "24h") as "24h" | "7d" | "30d" | "1y";
    return { body: [withSeries(range, overrides)] };
  };
}

describe("detail formulas", () => {
  it("computes capacity factor and energy yield from energy and capacity", () => {
    expect(capacityFactorPercent(36_000, 10)).toBeCloseTo(15);
    expect(energyYieldKwhPerKw(36_000, 10)).toBeCloseTo(3.6);
    expect(capacityFactorPercent(1000, 0)).toBeNull();
  });

  it("counts 0.92 kg of CO2 and 0.045 trees per kWh", () => {
    expect(co2AvoidedKg(100_000)).toBeCloseTo(92);
    expect(treesEquivalent(100_000)).toBeCloseTo(4.5);
  });

  it("sums the range from the days with data and takes PR over days with both figures", () => {
    expect(rangeEnergyWh(week)).toBe(100_000);
    expect(
      rangeEnergyWh([{ date: "2026-06-01", energyWh: null, expectedWh: 5, performanceRatio: null }]),
    ).toBeNull();
    // 10 + 20 + 30 + 25 + 0 kWh actual over 12.5 + 25 + 31.25 + 25 + 6.25 kWh expected.
    expect(rangePerformanceRatio(week)).toBeCloseTo(85_000 / 100_000);
  });

  it("labels state 1 Online, 3 Alarm and anything else Offline", () => {
    expect([1, 3, 2, 0, 7].map(stateLabel)).toEqual(["online", "alarm", "offline", "offline", "offline"]);
  });

  it("reads the id from the last path segment", () => {
    expect(idFromPath("sys-1")).toBe("sys-1");
    expect(idFromPath("/app/analytics/sys-1")).toBe("sys-1");
    expect(idFromPath("/app/analytics/a%20b/")).toBe("a b");
    expect(idFromPath("100%")).toBe("100%");
  });
});

describe("Performance Analytics list", () => {
  it("shows a card per system with provider, capacity, power, energy, efficiency, PR, status and data time", async () => {
    const { calls } = openAt("/app/analytics", { "GET /api/analytics": { body: list } });
    const card = await screen.findByRole("link", { name: "Warehouse Roof" });
    expect(card).toHaveTextContent("Solis");
    expect(card).toHaveTextContent("Amsterdam Depot");
    expect(card).toHaveTextContent("10 kW");
    expect(card).toHaveTextContent("4.0 kW");
    expect(card).toHaveTextContent("36.0 kWh");
    expect(card).toHaveTextContent("40.0% · PR 84%");
    expect(card).toHaveTextContent("Online");
    expect(card).toHaveTextContent(/Data as of 1 Jun 2026/);
    const gym = screen.getByRole("link", { name: "School Gym" });
    expect(gym).toHaveTextContent("640 W");
    expect(gym).toHaveTextContent("950 Wh");
    expect(gym).toHaveTextContent("PR —");
    expect(gym).toHaveTextContent("No data yet");
    expect(within(gym).getByText("Fault")).toBeInTheDocument();

    const request = calls.find((call) => call.path === "/api/analytics");
    expect(request?.url).toContain("system=all");
    expect(request?.url).toContain("range=24h");
  });

  it("shows no power or efficiency now for a stale or offline system, only when it last spoke", async () => {
    const silent = [
      makeRecord({
        id: "s1",
        systemId: "s1",
        stationName: "Silent Roof",
        systemName: "Silent Roof",
        status: "offline",
        state: 2,
      }),
      makeRecord({
        id: "s2",
        systemId: "s2",
        stationName: "Quiet Roof",
        systemName: "Quiet Roof",
        status: "stale",
      }),
    ];
    openAt("/app/analytics", { "GET /api/analytics": { body: silent } });
    for (const name of ["Silent Roof", "Quiet Roof"]) {
      const card = await screen.findByRole("link", { name });
      // Its last 4.0 kW and 40 % are yesterday's, not output now.
      expect(card).not.toHaveTextContent("4.0 kW");
      expect(card).toHaveTextContent("— · PR 84%");
      expect(card).toHaveTextContent(/Data as of 1 Jun 2026/);
    }
  });

  it("shows the fleet's totals as the API computed them (Meteronline left out)", async () => {
    const { calls } = openAt("/app/analytics", { "GET /api/analytics": { body: list } });
    await screen.findByRole("link", { name: "Farm Import" });
    expect(await screen.findByText("4.6 kW")).toBeInTheDocument();
    expect(screen.getByText("37.0 kWh")).toBeInTheDocument();
    expect(screen.getByText("37.5%")).toBeInTheDocument();
    expect(screen.getByText("Totals leave out Meteronline systems.")).toBeInTheDocument();
    expect(calls.filter((call) => call.path === "/api/dashboard/summary")).toHaveLength(1);
  });

  it("filters the cards by provider and back to all", async () => {
    const { user } = openAt("/app/analytics", { "GET /api/analytics": { body: list } });
    await screen.findByRole("link", { name: "Warehouse Roof" });
    expect(screen.getAllByRole("button").filter((b) => b.hasAttribute("aria-pressed"))).toHaveLength(6);

    await user.click(screen.getByRole("button", { name: /^Fronius/ }));
    expect(screen.getByRole("button", { name: /^Fronius/ })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByRole("link", { name: "School Gym" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Warehouse Roof" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Farm Import" })).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: /^SMA/ }));
    expect(screen.getByText("No systems from SMA.")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: /^Meteronline/ }));
    expect(screen.getByRole("link", { name: "Farm Import" })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: /^All/ }));
    expect(screen.getAllByRole("link", { name: /Warehouse Roof|School Gym|Farm Import/ })).toHaveLength(3);
  });

  it("shows the empty state without systems and the error state when the call fails", async () => {
    openAt("/app/analytics", { "GET /api/analytics": { body: [] } });
    expect(await screen.findByText("No sites available")).toBeInTheDocument();
  });

  it("shows the server's message when the list fails", async () => {
    openAt("/app/analytics", {
      "GET /api/analytics": {
        status: 500,
        body: { error: "Internal server error", code: "internal_error", details: { requestId: "req-1" } },
      },
    });
    expect(await screen.findByText("Could not load analytics")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Something went wrong on our side (reference req-1).",
    );
  });

  it("opens the detail of the clicked card", async () => {
    const { user, router } = openAt("/app/analytics", { "GET /api/analytics": detailHandler() });
    await user.click(await screen.findByRole("link", { name: "Warehouse Roof" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/app/analytics/sys-1"));
    expect(await screen.findByRole("tab", { name: "Overview" })).toBeInTheDocument();
  });
});

describe("site analytics detail", () => {
  it("asks for 7 days first and shows the KPIs with units and the data time", async () => {
    const { calls } = openAt("/app/analytics/sys-1", { "GET /api/analytics": detailHandler() });
    await screen.findByRole("tab", { name: "Overview" });
    expect(screen.getByRole("heading", { level: 1, name: "Warehouse Roof" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Analytics" })).toHaveAttribute("href", "/app/analytics");
    const request = calls.find((call) => call.path === "/api/analytics");
    expect(request?.url).toContain("system=sys-1");
    expect(request?.url).toContain("range=7d");
    expect(screen.getByRole("button", { name: "7 days" })).toHaveAttribute("aria-pressed", "true");

    const kpi = (label: string) => screen.getByText(label, { selector: "p" }).parentElement as HTMLElement;
    expect(kpi("Current power")).toHaveTextContent("4.0 kW");
    expect(kpi("Current power")).toHaveTextContent(/Data as of 1 Jun 2026/);
    expect(kpi("Today's energy")).toHaveTextContent("36.0 kWh");
    expect(kpi("Efficiency")).toHaveTextContent("40.0%");
    // 36 kWh / (10 kW × 24 h) = 15 %; 36 kWh / 10 kW = 3.6 kWh/kWp.
    expect(kpi("Capacity factor")).toHaveTextContent("15.0%");
    expect(kpi("Energy yield")).toHaveTextContent("3.60 kWh/kWp");
    expect(kpi("Performance ratio")).toHaveTextContent("84%");
    expect(screen.getByText("Power curve")).toBeInTheDocument();
  });

  it("asks again for the range the user picks", async () => {
    const { calls, user } = openAt("/app/analytics/sys-1", { "GET /api/analytics": detailHandler() });
    await screen.findByRole("tab", { name: "Overview" });
    await user.click(screen.getByRole("button", { name: "30 days" }));
    await waitFor(() =>
      expect(calls.some((call) => call.url.includes("system=sys-1") && call.url.includes("range=30d"))).toBe(
        true,
      ),
    );
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "30 days" })).toHaveAttribute("aria-pressed", "true"),
    );
    expect(await screen.findByText("Hourly averages, last 30 days", { exact: false })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "1 year" }));
    expect(await screen.findByText("Daily peak power")).toBeInTheDocument();
  });

  it("shows actual against expected energy per day from the series, with the range's PR", async () => {
    const { user } = openAt("/app/analytics/sys-1", { "GET /api/analytics": detailHandler() });
    await user.click(await screen.findByRole("tab", { name: "Performance" }));
    expect(await screen.findByText("Actual vs expected energy per day")).toBeInTheDocument();
    expect(screen.getByText("Performance ratio per day")).toBeInTheDocument();
    const stat = (label: string) => screen.getByText(label, { selector: "p" }).parentElement as HTMLElement;
    expect(stat("Energy in period")).toHaveTextContent("100.0 kWh");
    expect(stat("Expected energy")).toHaveTextContent("120.0 kWh");
    expect(stat("Performance ratio")).toHaveTextContent("85%");
    // 100 kWh over 10 kW.
    expect(stat("Energy yield")).toHaveTextContent("10.00 kWh/kWp");

    const row = (date: string) => screen.getByRole("cell", { name: date }).closest("tr") as HTMLElement;
    expect(row("2026-05-29")).toHaveTextContent("30.0 kWh31.3 kWh96%");
    expect(row("2026-05-28")).toHaveTextContent("—20.0 kWh—");
  });

  it("lists inverters with state labels, power, today's energy and temperature", async () => {
    const { user } = openAt("/app/analytics/sys-1", { "GET /api/analytics": detailHandler() });
    await user.click(await screen.findByRole("tab", { name: "Inverters" }));
    const row = (serial: string) => screen.getByRole("cell", { name: serial }).closest("tr") as HTMLElement;
    expect(await screen.findByRole("cell", { name: "SN-ONLINE-1" })).toBeInTheDocument();
    expect(row("SN-ONLINE-1")).toHaveTextContent("Online2.5 kW20.5 kWh41.2 °C");
    expect(row("SN-ALARM-3")).toHaveTextContent("Alarm1.5 kW15.5 kWh58.0 °C");
    expect(row("SN-OFF-2")).toHaveTextContent("Offline0 W0.0 kWh—");
  });

  it("shows CO2 avoided and trees for the range's energy", async () => {
    const { user } = openAt("/app/analytics/sys-1", { "GET /api/analytics": detailHandler() });
    await user.click(await screen.findByRole("tab", { name: "Environmental" }));
    await screen.findByText("CO₂ avoided");
    const impact = async (label: string) =>
      (await screen.findByText(label)).closest("div")?.parentElement as HTMLElement;
    // 100 kWh × 0.92 kg and × 0.045 trees.
    expect(await impact("CO₂ avoided")).toHaveTextContent("92.0 kg");
    expect(await impact("Trees equivalent")).toHaveTextContent("4.5");
    expect(await impact("Energy in period")).toHaveTextContent("100.0 kWh");
  });

  it("shows Site Not Found for an unknown id or another organisation's system", async () => {
    const { calls } = openAt("/app/analytics/other-org-system", { "GET /api/analytics": detailHandler() });
    expect(await screen.findByText("Site Not Found")).toBeInTheDocument();
    expect(screen.getByText(/could not be found, or you do not have access to it/)).toBeInTheDocument();
    expect(screen.queryByRole("tab")).not.toBeInTheDocument();
    // A 404 is not retried.
    expect(calls.filter((call) => call.path === "/api/analytics")).toHaveLength(1);
  });

  it("shows an API Error box with the server's message for other failures", async () => {
    openAt("/app/analytics/sys-1", {
      "GET /api/analytics": {
        status: 500,
        body: { error: "Internal server error", code: "internal_error", details: { requestId: "req-1" } },
      },
    });
    const box = await screen.findByRole("alert");
    expect(box).toHaveTextContent("API Error");
    expect(box).toHaveTextContent("Something went wrong on our side (reference req-1).");
  });

  it("shows a debug box when no system is returned", async () => {
    openAt("/app/analytics/sys-1", { "GET /api/analytics": { body: [] } });
    expect(await screen.findByText("No systems returned")).toBeInTheDocument();
    expect(screen.getByText(/system=sys-1&range=7d/)).toBeInTheDocument();
  });
});
