import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Site } from "../../schema/api/sites";
import type { CurrentWeather } from "../../schema/api/weather";
import type { WeatherHistory } from "../../schema/api/weather-history";
import { localDate, shiftDate } from "../../web/components/weather/day";
import { hourLabels } from "../../web/components/weather/history-series";
import { conditionsLabel, showsCloudIcon, uvLabel, weatherImpact } from "../../web/components/weather/labels";
import { makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";
import { makeAvailableSystem, makeSite as siteFixture } from "./sites-fixtures";

const HOUR = 3_600_000;

describe("weather labels", () => {
  it.each([
    [0, "clearSky"],
    [29.9, "clearSky"],
    [30, "partlyCloudy"],
    [69, "partlyCloudy"],
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

  it("reads no irradiance as no sunlight whatever the sky", () => {
    expect(weatherImpact({ cloudCover: 10, solarIrradiance: 0 })).toBe("night");
    expect(weatherImpact({ cloudCover: 10, solarIrradiance: 700 })).toBe("optimal");
    expect(weatherImpact({ cloudCover: 90, solarIrradiance: 80 })).toBe("heavy");
  });
});

describe("the chosen day", () => {
  it("takes the calendar day on the plant's own clock", () => {
    expect(localDate("2026-06-10T23:30:00Z", "Europe/Amsterdam")).toBe("2026-06-11");
    expect(localDate("2026-06-10T23:30:00Z", "America/Los_Angeles")).toBe("2026-06-10");
    expect(shiftDate("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("labels hours on the site's clock, naming the zone for the hour the autumn DST change repeats", () => {
    const start = Date.parse("2026-10-24T22:00:00Z");
    const times = Array.from({ length: 25 }, (_, i) => new Date(start + i * HOUR).toISOString());
    const labels = hourLabels(times, "en-GB", "Europe/Amsterdam");
    expect(labels.slice(0, 5)).toEqual(["00:00", "01:00", "02:00 CEST", "02:00 CET", "03:00"]);
    expect(labels.at(-1)).toBe("23:00");
    expect(new Set(labels).size).toBe(25);
  });
});

/** The shared site fixture, as the weather screens were written against it (UTC, one system). */
const makeSite = (overrides: Partial<Site> = {}): Site =>
  siteFixture({
    location: "Keizersgracht 123, Amsterdam",
    state: null,
    country: "NL",
    timezone: "UTC",
    capacity: 10,
    estimatedYield: null,
    currentPower: 4000,
    todayGeneration: 20_000,
    systemCount: 1,
    onlineSystemCount: 1,
    ...overrides,
  });

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
const HISTORY_PATH = "/api/sites/site-1/weather-history";

/**
 * A UTC site's day: irradiance from 06:00 to 17:00, generation from 07:00 to 16:00, on 10 kW.
 * The totals are given, not summed, so the test sees the page shows the server's figures.
 */
function makeHistory(date: string, overrides: Partial<WeatherHistory> = {}): WeatherHistory {
  const start = Date.parse(`${date}T00:00:00Z`);
  const hours = Array.from({ length: 24 }, (_, i) => {
    const irradianceWm2 = i >= 6 && i <= 17 ? 100 * (i - 5) : null;
    return {
      time: new Date(start + i * HOUR).toISOString(),
      irradianceWm2,
      powerW: i >= 7 && i <= 16 ? 800 * (i - 6) : null,
      expectedPowerW: irradianceWm2 === null ? null : Math.round(10 * irradianceWm2 * 0.8256),
    };
  });
  return {
    siteId: "site-1",
    systemId: null,
    name: "Warehouse Roof",
    timezone: "UTC",
    date,
    capacityW: 10_000,
    systemCount: 2,
    hours,
    totals: {
      through: new Date(start + 24 * HOUR).toISOString(),
      irradiationWhM2: 4560,
      energyWh: date === today ? 18_500 : 30_000,
      expectedWh: date === today ? 22_400 : 36_000,
      performanceRatio: date === today ? 0.826 : 0.833,
    },
    source: "Weather data by Open-Meteo.com (CC BY 4.0)",
    ...overrides,
  };
}

const historyHandler = ({ url }: { url: string }) => ({
  body: makeHistory(new URL(url, "http://localhost").searchParams.get("date") ?? today),
});

function openWeather(handlers: Parameters<typeof mockApi>[0]) {
  const profile = makeProfile();
  storeSession(profile);
  const api = mockApi({ ...signedInApi(profile), "GET /api/available-systems": { body: [] }, ...handlers });
  return { ...api, ...renderApp("/app/weather") };
}

const oneSite = {
  "GET /api/sites": { body: [makeSite()] },
  "GET /api/weather/current": { body: weather },
};

describe("Weather Correlation page", () => {
  it("shows No Weather Data when the organisation has no sites", async () => {
    openWeather({ "GET /api/sites": { body: [] } });
    expect(await screen.findByText("No Weather Data")).toBeInTheDocument();
  });

  it("shows each site's current weather with cloud-cover and UV labels, units, time and the Open-Meteo attribution", async () => {
    const { calls } = openWeather({ ...oneSite, [`GET ${HISTORY_PATH}`]: historyHandler });
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
  });

  it("charts the day's generation against irradiance from the hourly history, with totals and units", async () => {
    const { calls } = openWeather({ ...oneSite, [`GET ${HISTORY_PATH}`]: historyHandler });
    const card = await screen.findByRole("article", { name: "Warehouse Roof" });
    const history = await within(card).findByRole("region", { name: /^Generation and irradiance on / });
    expect(await within(history).findByText("Power, kW")).toBeInTheDocument();
    expect(within(history).getByText("Irradiance, W/m²")).toBeInTheDocument();
    expect(history.querySelectorAll(".recharts-responsive-container")).toHaveLength(2);
    expect(history).toHaveTextContent("Hours at the site (UTC)");
    expect(history).toHaveTextContent("Irradiance: Weather data by Open-Meteo.com (CC BY 4.0)");

    const totals = history.querySelector("dl");
    const facts = Object.fromEntries(
      [...(totals?.querySelectorAll("div") ?? [])].map((fact) => [
        fact.querySelector("dt")?.textContent,
        fact.querySelector("dd")?.textContent,
      ]),
    );
    expect(facts).toEqual({
      Energy: "18.5 kWh",
      "Expected energy": "22.4 kWh",
      Irradiation: "4.56 kWh/m²",
      "Performance ratio": "83%",
    });
    expect(history).toHaveTextContent("Totals for the whole day at the site (UTC).");
    expect(history).toHaveTextContent("Expected from the measured irradiance on 10 kW");

    fireEvent.click(within(history).getByText("Hourly figures"));
    const table = within(history).getByRole("table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Hour (UTC)", "Irradiance (W/m²)", "Generation (kW)", "Expected (kW)"]);
    expect(within(table).getAllByRole("row")).toHaveLength(25);
    const noon = within(table).getByRole("rowheader", { name: "12:00" }).closest("tr");
    expect([...(noon?.querySelectorAll("td") ?? [])].map((cell) => cell.textContent)).toEqual([
      "700",
      "4.80",
      "5.78",
    ]);
    const night = within(table).getByRole("rowheader", { name: "02:00" }).closest("tr");
    expect([...(night?.querySelectorAll("td") ?? [])].map((cell) => cell.textContent)).toEqual([
      "—",
      "—",
      "—",
    ]);

    expect(calls.find((call) => call.path === HISTORY_PATH)?.url).toContain(`date=${today}`);
    expect(screen.getByLabelText("Day")).toHaveValue(today);
    // The endpoint replaces the per-system analytics stand-in and its caveat.
    expect(calls.some((call) => call.path === "/api/analytics")).toBe(false);
    expect(screen.queryByText("About these charts")).not.toBeInTheDocument();
  });

  it("asks for the chosen day and says how far today's totals run", async () => {
    const { calls } = openWeather({
      ...oneSite,
      [`GET ${HISTORY_PATH}`]: ({ url }: { url: string }) => {
        const date = new URL(url, "http://localhost").searchParams.get("date") ?? today;
        const history = makeHistory(date);
        return date === today
          ? { body: { ...history, totals: { ...history.totals, through: `${today}T15:00:00.000Z` } } }
          : { body: history };
      },
    });
    const card = await screen.findByRole("article", { name: "Warehouse Roof" });
    expect(
      await within(card).findByText(/Totals for the finished hours, up to 15:00 at the site \(UTC\)\./),
    ).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText("Day"), { target: { value: yesterday } });
    expect(await within(card).findByText("30.0 kWh")).toBeInTheDocument();
    expect(card).toHaveTextContent("Totals for the whole day at the site (UTC).");
    await waitFor(() =>
      expect(calls.some((call) => call.path === HISTORY_PATH && call.url.includes(`date=${yesterday}`))).toBe(
        true,
      ),
    );
  });

  it("says No irradiance recorded for this day yet when the day has no hourly data", async () => {
    openWeather({
      ...oneSite,
      [`GET ${HISTORY_PATH}`]: {
        body: makeHistory(today, {
          hours: makeHistory(today).hours.map((hour) => ({
            ...hour,
            irradianceWm2: null,
            powerW: null,
            expectedPowerW: null,
          })),
        }),
      },
    });
    const card = await screen.findByRole("article", { name: "Warehouse Roof" });
    expect(await within(card).findByText("No irradiance recorded for this day yet")).toBeInTheDocument();
    expect(within(card).queryByText("Power, kW")).not.toBeInTheDocument();
  });

  it("shows an error with a retry when the history cannot be loaded", async () => {
    let attempts = 0;
    openWeather({
      ...oneSite,
      [`GET ${HISTORY_PATH}`]: (request: { url: string }) =>
        ++attempts === 1
          ? { status: 500, body: { error: "Internal server error" } }
          : historyHandler(request),
    });
    const card = await screen.findByRole("article", { name: "Warehouse Roof" });
    const alert = await within(card).findByRole("alert");
    expect(alert).toHaveTextContent("Could not load the day's generation and irradiance");
    fireEvent.click(within(alert).getByRole("button", { name: "Try again" }));
    expect(await within(card).findByText("18.5 kWh")).toBeInTheDocument();
    expect(within(card).queryByRole("alert")).not.toBeInTheDocument();
  });

  it("charts irradiance and says so when a site has no monitoring systems", async () => {
    openWeather({
      "GET /api/sites": { body: [makeSite({ id: "site-2", name: "Empty Lot", systemCount: 0 })] },
      "GET /api/weather/current": { body: { ...weather, cloudCover: 80, uvIndex: 9 } },
      "GET /api/sites/site-2/weather-history": {
        body: makeHistory(today, {
          siteId: "site-2",
          systemCount: 0,
          capacityW: null,
          hours: makeHistory(today).hours.map((hour) => ({ ...hour, powerW: null, expectedPowerW: null })),
          totals: {
            through: null,
            irradiationWhM2: 4560,
            energyWh: null,
            expectedWh: null,
            performanceRatio: null,
          },
        }),
      },
    });
    const card = await screen.findByRole("article", { name: "Empty Lot" });
    expect(await within(card).findByText("Cloudy")).toBeInTheDocument();
    expect(card).toHaveTextContent("9.0 · High");
    expect(
      await within(card).findByText("No monitoring systems are attached to this site."),
    ).toBeInTheDocument();
    expect(card).toHaveTextContent("4.56 kWh/m²");
    expect(card).toHaveTextContent("The site has no known capacity, so nothing is expected.");
    expect(card).toHaveTextContent("No hour of this day has finished at the site yet.");
  });

  it("shows a fleet's sites ten at a time, worst first, searched by the server, the page and search in the URL", async () => {
    const total = 2_000;
    const { calls, router } = openWeather({
      "GET /api/sites": ({ url }: { url: string }) => {
        const params = new URL(url, "http://localhost").searchParams;
        const page = Number(params.get("page") ?? 1);
        const q = params.get("q");
        const sites = q
          ? [makeSite({ id: "site-77", name: `Match for ${q}` })]
          : Array.from({ length: 10 }, (_, i) =>
              makeSite({ id: `site-${page}-${i}`, name: `Site ${(page - 1) * 10 + i + 1}` }),
            );
        return { body: sites, headers: { "X-Total-Count": String(q ? 1 : total) } };
      },
      "GET /api/weather/current": { body: weather },
    });
    expect(await screen.findByRole("article", { name: "Site 1" })).toBeInTheDocument();
    expect(screen.getAllByRole("article")).toHaveLength(10);
    expect(screen.getByText("2,000 sites")).toBeInTheDocument();
    expect(screen.getByText("Page 1 of 200")).toBeInTheDocument();
    const first = calls.find((call) => call.path === "/api/sites");
    expect(first?.url).toContain("pageSize=10");
    expect(first?.url).toContain("sort=pr");

    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(await screen.findByRole("article", { name: "Site 11" })).toBeInTheDocument();
    expect(router.state.location.search).toMatchObject({ page: 2 });

    fireEvent.change(screen.getByRole("searchbox"), { target: { value: "Dokkum" } });
    expect(await screen.findByRole("article", { name: "Match for Dokkum" })).toBeInTheDocument();
    expect(screen.getAllByRole("article")).toHaveLength(1);
    // A new search starts from the first page.
    await waitFor(() => expect(router.state.location.search).toEqual({ q: "Dokkum" }));
    expect(
      calls.some((call) => call.path === "/api/available-systems" && call.url.includes("q=Dokkum")),
    ).toBe(true);
  });

  it("shows a plant with coordinates but no site, with its own weather and day, and leaves out a plant without a place", async () => {
    const { calls } = openWeather({
      "GET /api/sites": { body: [] },
      "GET /api/available-systems": {
        body: [
          makeAvailableSystem({
            id: "sys-9",
            name: "Barn Roof",
            location: "Dokkum",
            latitude: 53.33,
            longitude: 6.0,
          }),
          makeAvailableSystem({
            id: "sys-10",
            name: "Nowhere",
            location: null,
            latitude: null,
            longitude: null,
          }),
        ],
      },
      "GET /api/weather/current": { body: weather },
      "GET /api/systems/sys-9/weather-history": ({ url }: { url: string }) => ({
        body: makeHistory(new URL(url, "http://localhost").searchParams.get("date") ?? today, {
          siteId: null,
          systemId: "sys-9",
          name: "Barn Roof",
          systemCount: 1,
        }),
      }),
    });
    const card = await screen.findByRole("article", { name: "Barn Roof" });
    expect(card).toHaveTextContent("Dokkum");
    expect(await within(card).findByText("18.5 kWh")).toBeInTheDocument();
    expect(screen.queryByRole("article", { name: "Nowhere" })).not.toBeInTheDocument();
    expect(screen.queryByText("No Weather Data")).not.toBeInTheDocument();
    const weatherCall = calls.find((call) => call.path === "/api/weather/current");
    expect(weatherCall?.url).toContain("lat=53.33");
    expect(weatherCall?.url).toContain("lng=6");
  });
});
