import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { AnalyticsRecord } from "../../schema/api/analytics";
import type { Site } from "../../schema/api/sites";
import type { CurrentWeather } from "../../schema/api/weather";
import { localDate, rangeForDay, shiftDate } from "../../web/components/weather/day";
import { conditionsLabel, showsCloudIcon, uvLabel } from "../../web/components/weather/labels";
import { makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";

describe("weather labels (SPEC section 4)", () => {
  it.each([
    [0, "clearSky"],
    [29.9, "clearSky"],
    [30, "partlyCloudy"],
    [69.9, "partlyCloudy"],
    [70, "cloudy"],
    [100, "cloudy"],
  ])("labels %s %% cloud cover %s", (cloudCover, label) => {
    expect(conditionsLabel(cloudCover)).toBe(label);
  });

  it("switches to the cloud icon above 50 %", () => {
    expect(showsCloudIcon(50)).toBe(false);
    expect(showsCloudIcon(51)).toBe(true);
  });

  it.each([
    [11, "high"],
    [8, "high"],
    [7.9, "moderate"],
    [6, "moderate"],
    [5.9, "low"],
    [0, "low"],
  ])("labels UV index %s %s", (uv, label) => {
    expect(uvLabel(uv)).toBe(label);
  });
});

describe("the day's analytics range", () => {
  it("reads today from 24h, the week before from 7d, the month from 30d, and nothing beyond", () => {
    expect(rangeForDay("2026-06-10", "2026-06-10")).toBe("24h");
    expect(rangeForDay("2026-06-09", "2026-06-10")).toBe("7d");
    expect(rangeForDay("2026-06-04", "2026-06-10")).toBe("7d");
    expect(rangeForDay("2026-06-03", "2026-06-10")).toBe("30d");
    expect(rangeForDay("2026-05-12", "2026-06-10")).toBe("30d");
    expect(rangeForDay("2026-05-11", "2026-06-10")).toBeNull();
    // A day the plant has not reached yet (it is behind the viewer's zone).
    expect(rangeForDay("2026-06-11", "2026-06-10")).toBeNull();
  });

  it("takes the calendar day on the plant's own clock", () => {
    expect(localDate("2026-06-10T23:30:00Z", "Europe/Amsterdam")).toBe("2026-06-11");
    expect(localDate("2026-06-10T23:30:00Z", "America/Los_Angeles")).toBe("2026-06-10");
    expect(shiftDate("2026-03-01", -1)).toBe("2026-02-28");
  });
});

function makeSite(overrides: Partial<Site> = {}): Site {
  return {
    id: "site-1",
    name: "Warehouse Roof",
    address: "Keizersgracht 123, Amsterdam",
    location: "Keizersgracht 123, Amsterdam",
    latitude: 52.3752,
    longitude: 4.8862,
    city: "Amsterdam",
    state: null,
    country: "NL",
    timezone: "UTC",
    provider: "solis",
    providers: ["solis"],
    capacity: 10,
    capacitySource: "systems",
    acLimitKw: null,
    tiltDeg: null,
    azimuthDeg: null,
    estimatedYield: null,
    status: "online",
    currentPower: 4000,
    todayGeneration: 20_000,
    lastUpdate: "2026-06-01T10:15:00.000Z",
    isActive: true,
    systemCount: 1,
    onlineSystemCount: 1,
    createdAt: "2026-05-01T08:00:00.000Z",
    updatedAt: "2026-05-01T08:00:00.000Z",
    ...overrides,
  };
}

const weather: CurrentWeather = {
  latitude: 52.3752,
  longitude: 4.8862,
  temperature: 18.4,
  cloudCover: 45,
  solarIrradiance: 612,
  windSpeed: 14.2,
  humidity: 63,
  uvIndex: 6.5,
  time: "2026-06-01T10:00:00.000Z",
  source: "open-meteo",
};

const today = localDate(Date.now(), "UTC");
const yesterday = shiftDate(today, -1);

function record(range: "24h" | "7d"): AnalyticsRecord {
  const days = range === "24h" ? [yesterday, today] : [shiftDate(today, -6), yesterday, today];
  return {
    provider: "solis",
    stationName: "Roof East",
    systemName: "Roof East",
    siteName: "Warehouse Roof",
    systemId: "sys-1",
    siteId: "site-1",
    id: "sys-1",
    providerId: "p-1",
    currentPowerW: 4000,
    todayGenerationWh: 20_000,
    capacity: 10,
    efficiency: 40,
    performanceRatio: 0.8,
    state: 1,
    status: "online",
    inverterCount: 0,
    inverterStates: [],
    location: { address: null, latitude: 52.3752, longitude: 4.8862 },
    timezone: "UTC",
    lastUpdated: `${today}T10:15:00.000Z`,
    error: null,
    series: {
      range,
      power: [
        { time: `${yesterday}T12:00:00.000Z`, powerW: 7000 },
        { time: `${today}T09:00:00.000Z`, powerW: 3000 },
        { time: `${today}T09:05:00.000Z`, powerW: 3500 },
      ],
      energy: days.map((date) => ({
        date,
        energyWh: date === today ? 20_000 : 42_000,
        expectedWh: date === today ? 25_000 : 50_000,
        performanceRatio: date === today ? 0.8 : 0.84,
      })),
    },
  };
}

function openWeather(handlers: Parameters<typeof mockApi>[0]) {
  const profile = makeProfile();
  storeSession(profile);
  const api = mockApi({ ...signedInApi(profile), ...handlers });
  return { ...api, ...renderApp("/app/weather") };
}

const analyticsHandler = ({ url }: { url: string }) => {
  const params = new URL(url, "http://localhost").searchParams;
  if (params.get("system") === "all") {
    const { series: _series, ...withoutSeries } = record("24h");
    return { body: [withoutSeries] };
  }
  return { body: [record(params.get("range") === "7d" ? "7d" : "24h")] };
};

describe("Weather Correlation page", () => {
  it("shows No Weather Data when the organisation has no sites", async () => {
    openWeather({ "GET /api/sites": { body: [] }, "GET /api/analytics": { body: [] } });
    expect(await screen.findByText("No Weather Data")).toBeInTheDocument();
  });

  it("shows each site's current weather with SPEC's labels, units, time and the Open-Meteo attribution", async () => {
    const { calls } = openWeather({
      "GET /api/sites": { body: [makeSite()] },
      "GET /api/analytics": analyticsHandler,
      "GET /api/weather/current": { body: weather },
    });
    const card = await screen.findByRole("article", { name: "Warehouse Roof" });
    expect(await within(card).findByText("Partly Cloudy")).toBeInTheDocument();
    expect(card).toHaveTextContent("18.4 °C");
    expect(card).toHaveTextContent("612 W/m²");
    expect(card).toHaveTextContent("45%");
    expect(card).toHaveTextContent("14.2 km/h");
    expect(card).toHaveTextContent("63%");
    expect(card).toHaveTextContent("6.5 · Moderate");
    expect(card).toHaveTextContent(/Observed 1 Jun 2026/);
    expect(
      within(card).getByRole("link", { name: "Weather data by Open-Meteo.com (CC BY 4.0)" }),
    ).toHaveAttribute("href", "https://open-meteo.com/");
    const weatherCall = calls.find((call) => call.path === "/api/weather/current");
    expect(weatherCall?.url).toContain("lat=52.3752");
    expect(weatherCall?.url).toContain("lng=4.8862");
    // The gap is reported on the page, not papered over with invented irradiance.
    expect(screen.getByText("About these charts")).toBeInTheDocument();
  });

  it("charts today's generation from the 24h series and that day's energy against irradiance", async () => {
    const { calls } = openWeather({
      "GET /api/sites": { body: [makeSite()] },
      "GET /api/analytics": analyticsHandler,
      "GET /api/weather/current": { body: weather },
    });
    const card = await screen.findByRole("article", { name: "Warehouse Roof" });
    expect(
      await within(card).findByText("Roof East: 20.0 kWh of 25.0 kWh expected (PR 80%)"),
    ).toBeInTheDocument();
    expect(calls.some((call) => call.url.includes("system=sys-1") && call.url.includes("range=24h"))).toBe(
      true,
    );
    expect(screen.getByLabelText("Day")).toHaveValue(today);
  });

  it("reads an earlier day from the 7-day series", async () => {
    const { calls } = openWeather({
      "GET /api/sites": { body: [makeSite()] },
      "GET /api/analytics": analyticsHandler,
      "GET /api/weather/current": { body: weather },
    });
    const card = await screen.findByRole("article", { name: "Warehouse Roof" });
    await within(card).findByText(/Roof East: 20.0 kWh/);
    fireEvent.change(screen.getByLabelText("Day"), { target: { value: yesterday } });
    expect(
      await within(card).findByText("Roof East: 42.0 kWh of 50.0 kWh expected (PR 84%)"),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.some((call) => call.url.includes("system=sys-1") && call.url.includes("range=7d"))).toBe(
        true,
      ),
    );
  });

  it("says so when a site has no monitoring systems", async () => {
    openWeather({
      "GET /api/sites": { body: [makeSite({ id: "site-2", name: "Empty Lot", systemCount: 0 })] },
      "GET /api/analytics": { body: [] },
      "GET /api/weather/current": { body: { ...weather, cloudCover: 80, uvIndex: 9 } },
    });
    const card = await screen.findByRole("article", { name: "Empty Lot" });
    expect(await within(card).findByText("Cloudy")).toBeInTheDocument();
    expect(card).toHaveTextContent("9.0 · High");
    expect(card).toHaveTextContent("No monitoring systems are attached to this site.");
  });
});
