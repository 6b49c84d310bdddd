import { act, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Alert } from "../../schema/api/alerts";
import type { DashboardSummary } from "../../schema/api/dashboard";
import type { DashboardMetric } from "../../schema/api/metrics";
import { defaultPreferences, type Preferences } from "../../schema/api/preferences";
import type { Site } from "../../schema/api/sites";
import type { CurrentWeather } from "../../schema/api/weather";
import { TOTALS_READ_INTERVAL_MS } from "../../web/lib/live-cache";
import {
  makeAlert,
  makeFleetSeries,
  makeFleetSite,
  makeLiveUpdate,
  makeMetric,
  makeSummary,
  makeWeather,
  summaryOf,
  systemsPages,
} from "./dashboard-fixtures";
import { FakeWebSocket } from "./fake-websocket";
import { type FakeResponse, makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";

interface DashboardData {
  /** GET /api/dashboard/summary (default: one solis system). */
  summary?: DashboardSummary | FakeResponse | (() => FakeResponse);
  /** The systems GET /api/dashboard/systems pages through, in the API's order (or its handler). */
  systems?: DashboardMetric[] | ((request: { url: string }) => FakeResponse);
  sites?: Site[];
  alerts?: Alert[];
  weather?: CurrentWeather;
  /** The answer of GET /api/dashboard/series (default: no hours yet, nothing to compare). */
  series?: FakeResponse;
  fallback?: FakeResponse;
  preferences?: Preferences;
}

function renderDashboard(data: DashboardData = {}) {
  const profile = makeProfile();
  storeSession(profile);
  const alerts = data.alerts ?? [];
  const api = mockApi({
    ...signedInApi(profile, data.preferences),
    "GET /api/dashboard/summary":
      typeof data.summary === "function"
        ? data.summary
        : data.summary === undefined || "totals" in data.summary
          ? { body: data.summary ?? makeSummary() }
          : data.summary,
    "GET /api/dashboard/systems":
      typeof data.systems === "function" ? data.systems : systemsPages(data.systems ?? [makeMetric()]),
    "GET /api/debug/dashboard-test": data.fallback ?? { status: 500, body: { error: "down" } },
    "GET /api/sites": { body: data.sites ?? [makeFleetSite()] },
    "GET /api/alerts": ({ url }) => {
      const state = new URL(url, "http://localhost").searchParams.get("state");
      return { body: alerts.filter((alert) => state === "all" || alert.resolved === (state === "resolved")) };
    },
    "GET /api/alerts/summary": { body: summaryOf(alerts) },
    "GET /api/weather/current": { body: data.weather ?? makeWeather() },
    "GET /api/dashboard/series": data.series ?? { body: makeFleetSeries() },
  });
  return { ...renderApp("/app/dashboard"), ...api };
}

const systemTable = () => screen.findByRole("table", { name: /Systems, worst performance ratio first/ });

const searchOf = (calls: { path: string; url: string }[], path: string) =>
  calls
    .filter((call) => call.path === path)
    .map((call) => Object.fromEntries(new URL(call.url, "http://localhost").searchParams));

const rowNames = (table: HTMLElement) =>
  within(table)
    .getAllByRole("rowheader")
    .map((cell) => cell.firstChild?.textContent);

describe("dashboard", () => {
  const solis = makeMetric({
    systemId: "sys-solis",
    stationName: "Harbour East",
    currentPowerW: 1500,
    todayGenerationWh: 12_000,
    efficiency: 15,
    performanceRatio: 0.9,
    expectedTodayWh: 13_000,
  });
  const sma = makeMetric({
    systemId: "sys-sma",
    siteId: "site-2",
    siteName: "Depot",
    stationName: "Depot Carport",
    provider: "sma",
    currentPowerW: 900,
    todayGenerationWh: 8000,
    capacity: 20,
    efficiency: 4.5,
    performanceRatio: 0.6,
    expectedTodayWh: 12_000,
    status: "stale",
    stale: true,
    dataTime: "2026-06-01T09:05:00.000Z",
  });
  const meteronline = makeMetric({
    systemId: "sys-meteo",
    siteId: "site-3",
    siteName: "Farm",
    stationName: "Farm Meter",
    provider: "meteronline",
    currentPowerW: 50_000,
    todayGenerationWh: 400_000,
    capacity: 100,
    efficiency: 50,
    performanceRatio: null,
    expectedTodayWh: null,
  });

  /** The summary the API computes for solis + sma + meteronline (the client adds nothing up). */
  const threeSystems = makeSummary({
    systemCount: 3,
    excludedSystemCount: 1,
    sites: { count: 5, activeCount: 3 },
    totals: {
      systemCount: 2,
      todayWh: 20_000,
      powerW: 1500,
      capacityKw: 30,
      meanEfficiencyPercent: 9.75,
      performanceRatio: 0.8,
    },
    providers: [
      { provider: "solis", siteCount: 1, systemCount: 1, capacityKw: 10, powerW: 1500 },
      { provider: "sma", siteCount: 1, systemCount: 1, capacityKw: 20, powerW: 0 },
    ],
  });

  it("shows a system the vendor reports offline with when it last spoke, not its last value as power", async () => {
    const silent = makeMetric({
      systemId: "sys-silent",
      stationName: "Brisbane Rooftop",
      currentPowerW: 69_400,
      status: "offline",
      state: 2,
      dataTime: "2026-06-01T04:00:00.000Z",
    });
    renderDashboard({ systems: [silent] });
    const table = await systemTable();
    const row = (await within(table).findByRole("rowheader", { name: /Brisbane Rooftop/ })).closest(
      "tr",
    ) as HTMLElement;
    expect(within(row).getByText(/^last data /)).toBeInTheDocument();
    expect(within(row).queryByText("69.4 kW")).not.toBeInTheDocument();
  });

  it("shows the API's totals on the cards and the first page of systems in the API's order", async () => {
    const { calls } = renderDashboard({
      summary: threeSystems,
      systems: [sma, solis, meteronline],
      sites: [makeFleetSite(), makeFleetSite({ id: "site-2", name: "Depot", status: "offline" })],
    });
    const table = await systemTable();
    // The table's caption is there before the page's rows on a busy machine.
    await waitFor(() => expect(rowNames(table)).toEqual(["Depot Carport", "Harbour East", "Farm Meter"]));

    const today = screen.getByText("Generation Today").closest("div.flex-col") as HTMLElement;
    expect(within(today).getByText("20.0 kWh")).toBeInTheDocument();
    const active = screen.getByText("Active Sites").closest("div.flex-col") as HTMLElement;
    // The API's count, not one made from the site list (two sites there, one offline).
    expect(within(active).getByText("3 of 5")).toBeInTheDocument();
    expect(within(active).getByText(/Systems monitored: 2/)).toBeInTheDocument();
    const efficiency = screen.getByText("Performance Efficiency").closest("div.flex-col") as HTMLElement;
    expect(within(efficiency).getByText("9.8%")).toBeInTheDocument();
    expect(within(efficiency).getByText("PR 80%")).toBeInTheDocument();

    // The stale system shows Stale with its last data time, not 0 W.
    const staleRow = within(table)
      .getByRole("rowheader", { name: /Depot Carport/ })
      .closest("tr") as HTMLElement;
    expect(within(staleRow).getAllByText("Stale")).toHaveLength(2);
    expect(within(staleRow).getByText(/^last data /)).toBeInTheDocument();
    expect(within(staleRow).queryByText("0 W")).not.toBeInTheDocument();
    const liveRow = within(table)
      .getByRole("rowheader", { name: /Harbour East/ })
      .closest("tr") as HTMLElement;
    expect(within(liveRow).getByText("1.5 kW")).toBeInTheDocument();
    expect(within(liveRow).getByText("12.0 kWh")).toBeInTheDocument();
    expect(within(liveRow).getByText("1/1 online")).toBeInTheDocument();
    expect(within(liveRow).getByText("PR 90%")).toBeInTheDocument();

    // The first screen reads the summary and one page, worst PR first: never every system.
    expect(searchOf(calls, "/api/dashboard/systems")).toEqual([
      { page: "1", pageSize: "50", sort: "pr", direction: "asc" },
    ]);
    expect(calls.filter((call) => call.path === "/api/dashboard/summary")).toHaveLength(1);
    expect(calls.filter((call) => call.path === "/api/dashboard/metrics")).toHaveLength(0);
  });

  it("shows no efficiency for a system without a capacity, and the API's mean on the card", async () => {
    const unrated = makeMetric({
      systemId: "solax-1",
      provider: "solax",
      stationName: "SolaX SVSANDBOX3",
      capacity: 0,
      efficiency: 0,
    });
    renderDashboard({
      summary: makeSummary({ systemCount: 2, totals: { systemCount: 2, meanEfficiencyPercent: 4.5 } }),
      systems: [sma, unrated],
      sites: [makeFleetSite()],
    });
    const table = await systemTable();
    const row = within(table)
      .getByRole("rowheader", { name: /SolaX SVSANDBOX3/ })
      .closest("tr") as HTMLElement;
    expect(row.lastElementChild?.textContent).toMatch(/^—/);
    const efficiency = screen.getByText("Performance Efficiency").closest("div.flex-col") as HTMLElement;
    expect(within(efficiency).getByText("4.5%")).toBeInTheDocument();
  });

  it("says no efficiency when the API knows no capacity in the fleet", async () => {
    renderDashboard({
      summary: makeSummary({ totals: { meanEfficiencyPercent: null, performanceRatio: null } }),
    });
    const efficiency = (await screen.findByText("Performance Efficiency")).closest(
      "div.flex-col",
    ) as HTMLElement;
    expect(within(efficiency).getByText("—")).toBeInTheDocument();
    expect(within(efficiency).getByText("PR —")).toBeInTheDocument();
  });

  it("names a system's site under it, but once when the site was made from that plant and shares its name", async () => {
    const own = makeMetric({
      systemId: "sys-own",
      siteId: "site-9",
      siteName: "Canal Roof",
      stationName: "Canal Roof",
    });
    renderDashboard({
      summary: makeSummary({ systemCount: 2 }),
      systems: [sma, own],
      sites: [makeFleetSite()],
    });
    const table = await systemTable();
    expect(within(table).getByRole("rowheader", { name: /Depot Carport/ })).toHaveTextContent(
      "Depot CarportDepot",
    );
    expect(within(table).getByRole("rowheader", { name: /Canal Roof/ }).textContent).toBe("Canal Roof");
  });

  it("asks the API for a column's order and the reverse on a second click, showing what it answers", async () => {
    // The API's answer per order (the worker tests hold the API to its ordering).
    const orders: Record<string, DashboardMetric[]> = {
      "pr|asc": [sma, solis, meteronline],
      "system|asc": [sma, meteronline, solis],
      "system|desc": [solis, meteronline, sma],
      "today|desc": [meteronline, solis, sma],
    };
    const { user } = renderDashboard({
      summary: threeSystems,
      systems: ({ url }) => {
        const params = new URL(url, "http://localhost").searchParams;
        return systemsPages(orders[`${params.get("sort")}|${params.get("direction")}`] ?? [])({ url });
      },
    });
    const table = await systemTable();
    expect(rowNames(table)).toEqual(["Depot Carport", "Harbour East", "Farm Meter"]);
    await user.click(within(table).getByRole("button", { name: "System" }));
    await waitFor(() => expect(rowNames(table)).toEqual(["Depot Carport", "Farm Meter", "Harbour East"]));
    expect(within(table).getByRole("columnheader", { name: /System/ })).toHaveAttribute(
      "aria-sort",
      "ascending",
    );
    await user.click(within(table).getByRole("button", { name: "System" }));
    await waitFor(() => expect(rowNames(table)).toEqual(["Harbour East", "Farm Meter", "Depot Carport"]));
    await user.click(within(table).getByRole("button", { name: "Today" }));
    await waitFor(() => expect(rowNames(table)).toEqual(["Farm Meter", "Harbour East", "Depot Carport"]));
    expect(within(table).getByRole("columnheader", { name: /Today/ })).toHaveAttribute(
      "aria-sort",
      "descending",
    );
  });

  it("pages a large fleet 50 systems at a time and searches it through the API", async () => {
    const fleet = Array.from({ length: 120 }, (_, i) =>
      makeMetric({
        systemId: `sys-${i}`,
        stationName: `Plant ${String(i).padStart(3, "0")}`,
        performanceRatio: i / 200,
      }),
    );
    const { user, calls } = renderDashboard({
      summary: makeSummary({ systemCount: 120, totals: { systemCount: 120 } }),
      systems: fleet,
    });
    const table = await systemTable();
    expect(rowNames(table)).toHaveLength(50);
    expect(rowNames(table)[0]).toBe("Plant 000");
    expect(screen.getByText("1–50 of 120")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Previous" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Next" }));
    await screen.findByText("51–100 of 120");
    await user.click(screen.getByRole("button", { name: "Next" }));
    await screen.findByText("101–120 of 120");
    expect(rowNames(table)).toEqual(fleet.slice(100).map((m) => m.stationName));
    expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();
    expect(searchOf(calls, "/api/dashboard/systems").map((query) => query.page)).toEqual(["1", "2", "3"]);

    await user.type(screen.getByRole("searchbox", { name: "Find a system" }), "plant 07");
    await waitFor(() => expect(rowNames(table)).toEqual(fleet.slice(70, 80).map((m) => m.stationName)));
    // The search is sent as typed (once typing pauses), from the first page.
    const searches = searchOf(calls, "/api/dashboard/systems").filter((query) => query.q !== undefined);
    expect(searches.at(-1)).toEqual({
      page: "1",
      pageSize: "50",
      sort: "pr",
      direction: "asc",
      q: "plant 07",
    });
    expect(searches.every((query) => query.page === "1")).toBe(true);
    expect(screen.queryByRole("button", { name: "Next" })).not.toBeInTheDocument();
    await user.clear(screen.getByRole("searchbox", { name: "Find a system" }));
    await user.type(screen.getByRole("searchbox", { name: "Find a system" }), "nowhere");
    expect(await screen.findByText("No system matches “nowhere”.")).toBeInTheDocument();
  });

  it("offers no search when the fleet fits one page", async () => {
    renderDashboard({ summary: threeSystems, systems: [solis, sma, meteronline] });
    await systemTable();
    expect(screen.queryByRole("searchbox", { name: "Find a system" })).not.toBeInTheDocument();
  });

  it("shows the API's totals per provider, and says how many meteronline systems it left out", async () => {
    renderDashboard({ summary: threeSystems, systems: [solis, sma, meteronline] });
    const list = await screen.findByRole("list", { name: "Provider Summary" });
    const solisRow = within(list).getByRole("listitem", { name: "Solis" });
    expect(within(solisRow).getByText("1.5 kW")).toBeInTheDocument();
    expect(within(solisRow).getByText("Sites: 1 · Systems: 1 · 10 kW")).toBeInTheDocument();
    const smaRow = within(list).getByRole("listitem", { name: "SMA" });
    expect(within(smaRow).getByText("0 W")).toBeInTheDocument();
    expect(within(smaRow).getByText("Sites: 1 · Systems: 1 · 20 kW")).toBeInTheDocument();
    expect(within(list).getByRole("listitem", { name: "SolaX" })).toHaveTextContent("No systems connected");
    expect(within(list).getByRole("listitem", { name: "Fronius" })).toBeInTheDocument();
    expect(within(list).queryByRole("listitem", { name: "Meteronline" })).not.toBeInTheDocument();
    expect(screen.getByText("Meteronline systems (1) are not counted in the totals.")).toBeInTheDocument();
  });

  it("shows at most 3 unresolved alerts with a link to all of them", async () => {
    const alerts = [
      makeAlert({ id: "a1", title: "Grid overvoltage", severity: "critical" }),
      makeAlert({ id: "a2", title: "String low", severity: "warning" }),
      makeAlert({ id: "a3", title: "Firmware update", severity: "info" }),
      makeAlert({ id: "a4", title: "Fan failure", severity: "warning" }),
      makeAlert({ id: "a5", title: "Old fault", resolved: true, resolvedAt: "2026-06-01T10:00:00.000Z" }),
    ];
    renderDashboard({ alerts });
    const panel = await screen.findByRole("list", { name: "Alerts" });
    const items = within(panel).getAllByRole("listitem");
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveClass("border-l-red-500");
    expect(items[1]).toHaveClass("border-l-amber-500");
    expect(items[2]).toHaveClass("border-l-blue-500");
    expect(within(panel).queryByText("Fan failure")).not.toBeInTheDocument();
    expect(within(panel).queryByText("Old fault")).not.toBeInTheDocument();
    const link = await screen.findByRole("link", { name: "View all alerts (4)" });
    expect(link).toHaveAttribute("href", "/app/alerts");
  });

  it("says all systems are operational when no alert is open", async () => {
    renderDashboard({ alerts: [makeAlert({ resolved: true, resolvedAt: "2026-06-01T10:00:00.000Z" })] });
    expect(await screen.findByText("All systems operational")).toBeInTheDocument();
    expect(screen.getByText("No active alerts")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /View all alerts/ })).not.toBeInTheDocument();
  });

  it("reads the weather at the first site and labels it by cloud cover", async () => {
    const { calls } = renderDashboard({
      weather: makeWeather({ cloudCover: 55, uvIndex: 6.2, solarIrradiance: 410 }),
    });
    expect(await screen.findByText("Partly Cloudy")).toBeInTheDocument();
    expect(screen.getByText("6.2 · Moderate")).toBeInTheDocument();
    expect(screen.getByText("At Harbour Roof")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Weather data by Open-Meteo.com" })).toBeInTheDocument();
    expect(screen.getByText(/^Observed /)).toBeInTheDocument();
    // The weather impact card reads the same observation.
    const impact = screen.getByText("Weather Impact").closest("div.flex-col") as HTMLElement;
    expect(within(impact).getByText("Reduced")).toBeInTheDocument();
    expect(within(impact).getByText(/55% cloud cover · 410 W\/m²/)).toBeInTheDocument();
    const weatherCall = calls.find((call) => call.path === "/api/weather/current");
    expect(new URL(weatherCall?.url ?? "", "http://localhost").searchParams.get("lat")).toBe("51.5");
    // One site is asked for, not the list (up to 1,000 sites, ~700 KB in a large fleet).
    const sitesCalls = calls.filter((call) => call.path === "/api/sites");
    expect(
      sitesCalls.map((call) => new URL(call.url, "http://localhost").searchParams.get("pageSize")),
    ).toEqual(["1"]);
  });

  it("reads the weather at a system's coordinates when no site exists yet", async () => {
    const { calls } = renderDashboard({
      sites: [],
      summary: makeSummary({ weatherPlace: { latitude: 48.85, longitude: 2.35, name: "Quay Roof" } }),
    });
    expect(await screen.findByText("At Quay Roof", {}, { timeout: 3000 })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((call) => call.path === "/api/weather/current")).toBe(true));
    const params = new URL(calls.find((call) => call.path === "/api/weather/current")?.url ?? "", "http://x")
      .searchParams;
    expect([params.get("lat"), params.get("lng")]).toEqual(["48.85", "2.35"]);
    expect(screen.queryByText("New York (no sites yet)")).not.toBeInTheDocument();
  });

  it("uses the default coordinates only when nothing in the organisation has a place", async () => {
    const { calls } = renderDashboard({
      sites: [],
      summary: makeSummary({ weatherPlace: null }),
      weather: makeWeather({ cloudCover: 85, uvIndex: 9 }),
    });
    expect(await screen.findByText("Cloudy")).toBeInTheDocument();
    expect(screen.getByText("9.0 · High")).toBeInTheDocument();
    expect(screen.getByText("New York (no sites yet)")).toBeInTheDocument();
    const params = new URL(calls.find((call) => call.path === "/api/weather/current")?.url ?? "", "http://x")
      .searchParams;
    expect([params.get("lat"), params.get("lng")]).toEqual(["40.7128", "-74.006"]);
  });

  it("shows today's change and the PR against its 7-day median from the fleet series", async () => {
    const { calls } = renderDashboard({
      summary: makeSummary({ totals: { todayWh: 12_000, performanceRatio: 12 / 13 } }),
      series: {
        body: makeFleetSeries({
          today: { energyWh: 12_000, yesterdaySameTimeWh: 10_000, changePct: 20, systemCount: 1 },
          performance: { todayPr: 0.92, medianPr7d: 0.8, changePct: 15, dayCount: 7 },
        }),
      },
    });
    const card = (await screen.findByText("Generation Today")).closest("div.flex-col") as HTMLElement;
    expect(await within(card).findByText("+20.0%")).toBeInTheDocument();
    expect(within(card).getByText(/vs 10.0 kWh by this time yesterday/)).toBeInTheDocument();
    const efficiency = screen.getByText("Performance Efficiency").closest("div.flex-col") as HTMLElement;
    expect(within(efficiency).getByText(/vs 7-day median PR: 80%/)).toBeInTheDocument();
    // The API's PR (12 of 13 kWh expected: 92.3 %) against the median: +12.3 points.
    expect(within(efficiency).getByText("PR 92%")).toBeInTheDocument();
    expect(within(efficiency).getByText("+12.3 pts")).toBeInTheDocument();
    expect(screen.queryByText(/PR yesterday/)).not.toBeInTheDocument();
    expect(calls.filter((call) => call.path === "/api/dashboard/series")).toHaveLength(1);
    expect(calls.filter((call) => call.path === "/api/analytics")).toHaveLength(0);
  });

  it("shows a falling generation and a PR below the median as decreases", async () => {
    renderDashboard({
      summary: makeSummary({ totals: { performanceRatio: 12 / 13 } }),
      series: {
        body: makeFleetSeries({
          today: { energyWh: 6000, yesterdaySameTimeWh: 8000, changePct: -25, systemCount: 1 },
          performance: { todayPr: 0.92, medianPr7d: 0.95, changePct: -3.2, dayCount: 5 },
        }),
      },
    });
    const card = (await screen.findByText("Generation Today")).closest("div.flex-col") as HTMLElement;
    expect(await within(card).findByText("−25.0%")).toBeInTheDocument();
    expect(within(card).getByText(/vs 8.0 kWh by this time yesterday/)).toBeInTheDocument();
    const efficiency = screen.getByText("Performance Efficiency").closest("div.flex-col") as HTMLElement;
    expect(within(efficiency).getByText("−2.7 pts")).toBeInTheDocument();
    expect(within(efficiency).getByText(/vs 7-day median PR: 95%/)).toBeInTheDocument();
  });

  it("omits the change indicators when yesterday and the 7-day median are not known", async () => {
    renderDashboard();
    expect(await screen.findByText(/No comparison: yesterday's data is not available/)).toBeInTheDocument();
    const efficiency = screen.getByText("Performance Efficiency").closest("div.flex-col") as HTMLElement;
    expect(within(efficiency).getByText(/Mean efficiency of the included systems/)).toBeInTheDocument();
    expect(screen.queryByText(/^[+−±]\d/)).not.toBeInTheDocument();
  });

  it("draws the whole fleet from one series call, hours in the viewer's zone", async () => {
    // Give the chart a size: jsdom lays nothing out, and recharts draws nothing at 0 × 0.
    vi.stubGlobal(
      "ResizeObserver",
      class {
        constructor(private readonly callback: ResizeObserverCallback) {}
        observe(target: Element) {
          const entry = {
            target,
            contentRect: { width: 800, height: 288 },
          } as unknown as ResizeObserverEntry;
          this.callback([entry], this as unknown as ResizeObserver);
        }
        unobserve() {}
        disconnect() {}
      },
    );
    // More systems than the old per-system cap of 24: still one call, and no "covers N of M" notice.
    const fleet = Array.from({ length: 30 }, (_, index) =>
      makeMetric({ systemId: `sys-${index}`, stationName: `Roof ${index}` }),
    );
    const { calls } = renderDashboard({
      summary: makeSummary({ systemCount: 30, totals: { systemCount: 30 } }),
      systems: fleet,
      preferences: { ...defaultPreferences, timezone: "Europe/Amsterdam" },
      series: {
        body: makeFleetSeries({
          timezone: "Europe/Amsterdam",
          generatedAt: "2026-06-10T07:20:00.000Z",
          generation: [
            { time: "2026-06-10T06:00:00.000Z", values: { solis: 1200, fronius: 300 } },
            { time: "2026-06-10T07:00:00.000Z", values: { solis: 2500 } },
          ],
        }),
      },
    });
    const chart = (await screen.findByText("Real-Time Generation by Provider")).closest(
      "div.flex-col",
    ) as HTMLElement;
    await waitFor(() => expect(chart.querySelector(".recharts-wrapper")).not.toBeNull());
    // Two stacked areas, one per provider present, in the summary's order.
    expect(chart.querySelectorAll(".recharts-area")).toHaveLength(2);
    expect(within(chart).getByText("Solis")).toBeInTheDocument();
    expect(within(chart).getByText("Fronius")).toBeInTheDocument();
    expect(within(chart).queryByText("SMA")).not.toBeInTheDocument();
    // 06:00 and 07:00 UTC are 08:00 and 09:00 in Amsterdam in June.
    expect(within(chart).getByText("08:00")).toBeInTheDocument();
    expect(within(chart).getByText("09:00")).toBeInTheDocument();
    expect(within(chart).getByText("Whole fleet, updated 09:20:00.")).toBeInTheDocument();
    expect(screen.queryByText(/^Covers the/)).not.toBeInTheDocument();

    const seriesCalls = calls.filter((call) => call.path === "/api/dashboard/series");
    expect(seriesCalls).toHaveLength(1);
    expect(new URL(seriesCalls[0]?.url ?? "", "http://localhost").searchParams.get("tz")).toBe(
      "Europe/Amsterdam",
    );
    expect(calls.filter((call) => call.path === "/api/analytics")).toHaveLength(0);
  });

  it("says no readings yet when today has no hours", async () => {
    renderDashboard({ series: { body: makeFleetSeries({ generation: [] }) } });
    expect(await screen.findByText("No readings yet today")).toBeInTheDocument();
  });

  it("shows the chart's error and keeps the rest of the dashboard when the series fails", async () => {
    renderDashboard({ series: { status: 500, body: { error: "Series down" } } });
    const chart = (await screen.findByText("Real-Time Generation by Provider")).closest(
      "div.flex-col",
    ) as HTMLElement;
    expect(await within(chart).findByText("Could not load today's generation")).toBeInTheDocument();
    expect(within(chart).getByRole("button", { name: "Try again" })).toBeInTheDocument();
    const card = screen.getByText("Generation Today").closest("div.flex-col") as HTMLElement;
    expect(within(card).getByText(/Comparison unavailable/)).toBeInTheDocument();
    expect(within(await systemTable()).getByRole("rowheader", { name: /Harbour East/ })).toBeInTheDocument();
  });

  it("shows the empty state when there are no systems", async () => {
    const { calls } = renderDashboard({
      summary: makeSummary({ systemCount: 0, totals: { systemCount: 0 }, weatherPlace: null }),
      systems: [],
    });
    expect(await screen.findByText("No sites yet")).toBeInTheDocument();
    expect(screen.getByText("Add your first solar site to start monitoring")).toBeInTheDocument();
    expect(calls.filter((call) => call.path === "/api/dashboard/systems")).toHaveLength(0);
  });

  it("treats an unreadable summary as no systems", async () => {
    renderDashboard({ summary: { body: { unexpected: true } } });
    expect(await screen.findByText("No sites yet")).toBeInTheDocument();
  });

  it("falls back to the debug totals when the summary call fails", async () => {
    const { calls } = renderDashboard({
      summary: { status: 500, body: { error: "boom" } },
      fallback: { body: { matchedSites: 2, totalCurrentPower: 3200, totalTodayGeneration: 25.5 } },
    });
    expect(await screen.findByText("Showing fleet totals only")).toBeInTheDocument();
    const today = screen.getByText("Generation Today").closest("div.flex-col") as HTMLElement;
    expect(within(today).getByText("25.5 kWh")).toBeInTheDocument();
    const solisRow = within(screen.getByRole("list", { name: "Provider Summary" })).getByRole("listitem", {
      name: "Solis",
    });
    expect(within(solisRow).getByText("3.2 kW")).toBeInTheDocument();
    // The fallback's totals count no sites: the card shows none rather than a zero.
    const active = screen.getByText("Active Sites").closest("div.flex-col") as HTMLElement;
    expect(within(active).getByText("—")).toBeInTheDocument();
    expect(calls.filter((call) => call.path === "/api/debug/dashboard-test").length).toBeGreaterThan(0);
    // No per-system detail with the fallback: no table, no page read.
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    expect(calls.filter((call) => call.path === "/api/dashboard/systems")).toHaveLength(0);
  });

  it("retries once, then shows the empty state with a notice when the fallback fails too", async () => {
    const { calls } = renderDashboard({ summary: { status: 500, body: { error: "boom" } } });
    expect(await screen.findByText("Fleet data unavailable", {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByText("No sites yet")).toBeInTheDocument();
    expect(calls.filter((call) => call.path === "/api/dashboard/summary")).toHaveLength(2);
    expect(calls.filter((call) => call.path === "/api/debug/dashboard-test")).toHaveLength(2);
  });

  it("keeps the figures shown when a refresh fails, and says so", async () => {
    let failing = false;
    const { queryClient } = renderDashboard({
      summary: () => (failing ? { status: 503, body: { error: "busy" } } : { body: makeSummary() }),
      fallback: { status: 503, body: { error: "busy" } },
    });
    const table = await systemTable();
    failing = true;
    await act(async () => {
      await queryClient.refetchQueries({ queryKey: ["dashboard", "summary"] }).catch(() => undefined);
    });
    expect(await screen.findByText("Fleet data unavailable", {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(within(table).getByRole("rowheader", { name: /Harbour East/ })).toBeInTheDocument();
    const today = screen.getByText("Generation Today").closest("div.flex-col") as HTMLElement;
    expect(within(today).getByText("12.0 kWh")).toBeInTheDocument();
    expect(screen.queryByText("No sites yet")).not.toBeInTheDocument();
  });

  it("merges a live update into the table at once, and shows the totals the API computes after it", async () => {
    let summaryReads = 0;
    const { calls } = renderDashboard({
      // The API's totals before the update, then after it.
      summary: () => ({
        body: makeSummary({
          systemCount: 2,
          totals: { systemCount: 2, todayWh: ++summaryReads === 1 ? 20_000 : 23_500 },
        }),
      }),
      systems: [solis, sma],
    });
    const table = await systemTable();
    const row = () =>
      within(table)
        .getByRole("rowheader", { name: /Harbour East/ })
        .closest("tr") as HTMLElement;
    expect(within(row()).getByText("1.5 kW")).toBeInTheDocument();
    const today = screen.getByText("Generation Today").closest("div.flex-col") as HTMLElement;
    expect(within(today).getByText("20.0 kWh")).toBeInTheDocument();

    const socket = FakeWebSocket.instances[0];
    act(() => socket?.serverOpens());
    act(() =>
      socket?.serverSends({
        type: "solis_realtime_update",
        data: makeLiveUpdate({ systemId: "sys-solis", powerW: 4200, pac: 4200, energyTodayWh: 15_500 }),
      }),
    );
    // The row at once (a page read again before the socket's values does not put them back) ...
    await waitFor(() => expect(within(row()).getByText("4.2 kW")).toBeInTheDocument());
    expect(within(row()).getByText("15.5 kWh")).toBeInTheDocument();
    // ... and the totals as the API computes them, read again rather than added up here.
    expect(await within(today).findByText("23.5 kWh")).toBeInTheDocument();

    // A stale system becomes fresh with its first live message.
    act(() =>
      socket?.serverSends({
        type: "realtime_update",
        data: makeLiveUpdate({
          systemId: "sys-sma",
          provider: "sma",
          stationName: "Depot Carport",
          powerW: 2500,
          pac: 2500,
          capacityW: 20_000,
        }),
      }),
    );
    const smaRow = within(table)
      .getByRole("rowheader", { name: /Depot Carport/ })
      .closest("tr") as HTMLElement;
    await waitFor(() => expect(within(smaRow).getByText("2.5 kW")).toBeInTheDocument());
    expect(within(smaRow).queryByText("Stale")).not.toBeInTheDocument();
    expect(within(smaRow).getByText("Online")).toBeInTheDocument();
    // Within an interval of the last read the totals are not read again for each message (a large
    // fleet's sync sends one a page); the first message after it reads them.
    expect(summaryReads).toBe(2);
    const now = vi.spyOn(Date, "now").mockReturnValue(Date.now() + TOTALS_READ_INTERVAL_MS);
    try {
      act(() => socket?.serverSends({ type: "systems_updated", data: { count: 1 } }));
      await waitFor(() => expect(summaryReads).toBe(3));
    } finally {
      now.mockRestore();
    }
    expect(within(row()).getByText("4.2 kW")).toBeInTheDocument();
    expect(calls.filter((call) => call.path === "/api/dashboard/metrics")).toHaveLength(0);
  });
});
