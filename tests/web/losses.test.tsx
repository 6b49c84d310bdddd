import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { defaultPreferences, type Preferences } from "../../schema/api/preferences";
import type { SiteTariffs } from "../../schema/api/tariffs";
import type { Role } from "../../schema/roles";
import { addDays, periodRange, todayIn } from "../../web/lib/losses";
import type { LossesReport, LossRanking } from "../../web/lib/queries/losses";
import {
  makeFleetSeries,
  makeFleetSite,
  makeMetric,
  makeSummary,
  makeWeather,
  summaryOf,
  systemsPages,
} from "./dashboard-fixtures";
import { findToast, makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";
import { makeEnhancedSite, makePortfolio, makeSite, makeSiteSystem } from "./sites-fixtures";

const none = { downtime: 0, partialOutage: 0, clipping: 0, soiling: 0, underperformance: 0, unmeasured: 0 };

/** A site's week at €0.25/kWh: 1,000 kWh expected, 100 lost to downtime on day 2, 20 to soiling, 10 unmeasured. */
function siteReport(overrides: Partial<LossesReport> = {}): LossesReport {
  const days = Array.from({ length: 7 }, (_, i) => {
    const date = addDays("2026-06-01", i);
    const losses =
      i === 1
        ? { ...none, downtime: 100, soiling: 4 }
        : i === 5
          ? { ...none, soiling: 6, unmeasured: 10 }
          : { ...none, soiling: 2 };
    const lost = Object.values(losses).reduce((a, b) => a + b, 0);
    return { date, expectedKwh: 1000 / 7, actualKwh: 1000 / 7 - lost, lostValue: lost * 0.25, losses };
  });
  return {
    currency: "EUR",
    from: "2026-06-01",
    to: "2026-06-07",
    totals: {
      expectedKwh: 1000,
      actualKwh: 870,
      revenue: 217.5,
      lostValue: 32.5,
      weatherKwh: 250,
      losses: { ...none, downtime: 100, soiling: 20, unmeasured: 10 },
    },
    days,
    ...overrides,
  };
}

const tariffs = (overrides: Partial<SiteTariffs> = {}): SiteTariffs => ({
  siteId: "site-1",
  timezone: "Europe/Amsterdam",
  tariffs: [],
  organizationTariffs: [
    { currency: "EUR", pricePerKwh: 0.25, validFrom: null, updatedAt: "2026-05-01T00:00:00Z" },
  ],
  current: {
    currency: "EUR",
    pricePerKwh: 0.25,
    validFrom: null,
    updatedAt: "2026-05-01T00:00:00Z",
    source: "organization",
  },
  ...overrides,
});

function openSite(
  path: string,
  {
    role = "orgOwner",
    language = "en",
    extra = {},
  }: { role?: Role; language?: Preferences["language"]; extra?: Parameters<typeof mockApi>[0] } = {},
) {
  const profile = makeProfile({ role });
  storeSession(profile);
  const api = mockApi({
    ...signedInApi(profile, { ...defaultPreferences, language }),
    "GET /api/sites/site-1": { body: makeEnhancedSite() },
    "GET /api/losses": { body: siteReport() },
    "GET /api/sites/site-1/tariffs": { body: tariffs() },
    ...extra,
  });
  return { ...api, ...renderApp(path) };
}

describe("loss periods", () => {
  it("end with the last finished day, or run through the month, on the site's clock", () => {
    expect(periodRange("last7", "2026-03-01")).toEqual({ from: "2026-02-22", to: "2026-02-28" });
    expect(periodRange("last30", "2026-03-01")).toEqual({ from: "2026-01-30", to: "2026-02-28" });
    expect(periodRange("thisMonth", "2026-03-01")).toEqual({ from: "2026-03-01", to: "2026-03-01" });
    expect(periodRange("lastMonth", "2026-03-01")).toEqual({ from: "2026-02-01", to: "2026-02-28" });
    expect(periodRange("lastMonth", "2024-03-15")).toEqual({ from: "2024-02-01", to: "2024-02-29" });
    expect(periodRange("lastMonth", "2026-01-10")).toEqual({ from: "2025-12-01", to: "2025-12-31" });
  });
});

describe("a site's Losses tab", () => {
  it("shows expected, each category and actual as a waterfall, the weather beside, in the reader's currency", async () => {
    const { calls } = openSite("/app/sites/site-1?tab=losses");
    const waterfall = await screen.findByRole("table", { name: /Expected energy, each loss category/ });
    const row = (name: string) =>
      within(waterfall).getByRole("rowheader", { name }).closest("tr") as HTMLElement;
    expect(row("Expected")).toHaveTextContent("1,000 kWh");
    expect(row("Downtime")).toHaveTextContent("100 kWh");
    expect(row("Downtime")).toHaveTextContent("10.0%");
    // One price a day at one site: each category's value is exact (100 kWh at €0.25).
    expect(row("Downtime")).toHaveTextContent("€25.00");
    expect(row("Soiling")).toHaveTextContent("20.0 kWh");
    expect(row("Soiling")).toHaveTextContent("€5.00");
    expect(row("Unmeasured")).toHaveTextContent("10.0 kWh");
    expect(row("Clipping")).toHaveTextContent("0.0 kWh");
    expect(row("Actual")).toHaveTextContent("870 kWh");
    expect(row("Weather")).toHaveTextContent("250 kWh");
    // The figures: lost value in euros, recoverable energy (downtime and soiling, not unmeasured).
    expect(screen.getByText("Lost value").closest("div")).toHaveTextContent("€32.50");
    expect(screen.getByText("Lost value").closest("div")).toHaveTextContent(
      "Lost energy: 130 kWh · 13.0% of expected",
    );
    expect(screen.getByText("Recoverable").closest("div")).toHaveTextContent("120 kWh");
    expect(screen.getByText("Actual", { selector: "dt" }).closest("div")).toHaveTextContent(
      "Revenue: €217.50",
    );
    // The last 30 finished days on the site's clock, by default.
    const request = new URL(calls.find((call) => call.path === "/api/losses")?.url ?? "", "http://x");
    const today = todayIn("Europe/Amsterdam");
    expect(Object.fromEntries(request.searchParams)).toEqual({
      siteId: "site-1",
      from: addDays(today, -30),
      to: addDays(today, -1),
    });
  });

  it("asks for the chosen period, and refuses a custom one that ends before it starts", async () => {
    const { user, calls } = openSite("/app/sites/site-1?tab=losses");
    await screen.findByRole("table", { name: /Expected energy/ });
    await user.selectOptions(screen.getByLabelText("Period"), "Last month");
    const today = todayIn("Europe/Amsterdam");
    const lastMonth = periodRange("lastMonth", today);
    await waitFor(() =>
      expect(calls.some((call) => call.url.includes(`from=${lastMonth.from}&to=${lastMonth.to}`))).toBe(true),
    );
    await user.selectOptions(screen.getByLabelText("Period"), "Custom");
    const from = screen.getByLabelText("From");
    await user.clear(from);
    await user.type(from, addDays(today, 1));
    expect(await screen.findByRole("alert")).toHaveTextContent("Choose a start on or before the end");
  });

  it("says a loss has no value without a price, and offers to set one", async () => {
    const { user } = openSite("/app/sites/site-1?tab=losses", {
      extra: {
        "GET /api/losses": {
          body: siteReport({
            currency: null,
            totals: { ...siteReport().totals, revenue: null, lostValue: null },
            days: siteReport().days.map((day) => ({ ...day, lostValue: null })),
          }),
        },
      },
    });
    expect(await screen.findByText(/No price of energy is set/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Set a price" }));
    expect(await screen.findByRole("heading", { name: "Price of energy" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Price of energy", selected: true })).toBeInTheDocument();
  });

  it("writes every figure the French way, in the site's currency", async () => {
    openSite("/app/sites/site-1?tab=losses", { language: "fr" });
    const waterfall = await screen.findByRole("table", { name: /Énergie attendue, chaque catégorie/ });
    const row = (name: string) =>
      within(waterfall).getByRole("rowheader", { name }).closest("tr") as HTMLElement;
    // French groups thousands with a narrow no-break space and writes the euro after the amount.
    expect(row("Attendue").textContent).toMatch(/1\s000 kWh/);
    expect(row("Arrêt").textContent).toMatch(/25,00\s€/);
    expect(row("Arrêt").textContent).toMatch(/10,0\s%/);
    expect(screen.getByText("Valeur perdue").closest("div")?.textContent).toMatch(/32,50\s€/);
  });
});

describe("the fleet's Losses page", () => {
  const ranking: LossRanking = {
    currency: "USD",
    total: 3,
    page: 1,
    pageCount: 1,
    sitesWithLoss: 2,
    sites: [
      { siteId: "site-2", name: "Depot", lostValue: 1234.5, lostKwh: 8230, mainCause: "downtime" },
      { siteId: "site-1", name: "Warehouse Roof", lostValue: 98.76, lostKwh: 658.4, mainCause: "clipping" },
      { siteId: "site-3", name: "School", lostValue: 0, lostKwh: 0, mainCause: null },
    ],
  };

  it("ranks sites worst-first by lost value over 30 days, with the main cause, each linked to its losses", async () => {
    const profile = makeProfile();
    storeSession(profile);
    const { calls } = mockApi({
      ...signedInApi(profile),
      "GET /api/losses/ranking": ({ url }) => ({
        body: url.includes("days=7") ? { ...ranking, sites: ranking.sites.slice(1) } : ranking,
      }),
    });
    const { user } = renderApp("/app/losses");
    const table = await screen.findByRole("table", { name: "Sites by lost value over the last 30 days" });
    const rows = within(table).getAllByRole("row").slice(1);
    // A site that lost nothing is not ranked.
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent("1DepotUS$1,234.508,230 kWhDowntime");
    expect(rows[1]).toHaveTextContent("2Warehouse RoofUS$98.76658 kWhClipping");
    expect(within(rows[0] as HTMLElement).getByRole("link", { name: "Depot" })).toHaveAttribute(
      "href",
      "/app/sites/site-2?tab=losses",
    );
    expect(calls.filter((call) => call.path === "/api/losses/ranking").map((call) => call.url)).toEqual([
      "/api/losses/ranking?days=30&page=1&pageSize=50",
    ]);
    await user.click(screen.getByRole("tab", { name: "7 days" }));
    await screen.findByRole("table", { name: "Sites by lost value over the last 7 days" });
    await waitFor(() => expect(screen.queryByRole("link", { name: "Depot" })).not.toBeInTheDocument());
    expect(calls.some((call) => call.url === "/api/losses/ranking?days=7&page=1&pageSize=50")).toBe(true);
  });

  it("pages through a large fleet's ranking, numbering on from the page before", async () => {
    const profile = makeProfile();
    storeSession(profile);
    const site = (rank: number) => ({
      siteId: `site-${rank}`,
      name: `Site ${rank}`,
      lostValue: 1000 - rank,
      lostKwh: 5000 - rank,
      mainCause: "downtime" as const,
    });
    const { calls } = mockApi({
      ...signedInApi(profile),
      "GET /api/losses/ranking": ({ url }) => {
        const page = Number(new URL(url, "http://localhost").searchParams.get("page"));
        const first = (page - 1) * 50 + 1;
        return {
          body: {
            currency: "USD",
            total: 60,
            page,
            pageCount: 2,
            sitesWithLoss: 60,
            sites: Array.from({ length: page === 1 ? 50 : 10 }, (_, i) => site(first + i)),
          },
        };
      },
    });
    const { user } = renderApp("/app/losses");
    const table = await screen.findByRole("table", { name: "Sites by lost value over the last 30 days" });
    expect(within(table).getAllByRole("row")).toHaveLength(51);
    expect(screen.getByText("Page 1 of 2")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(screen.getByRole("link", { name: "Site 51" })).toBeInTheDocument());
    const rows = within(screen.getByRole("table")).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(10);
    expect(rows[0]).toHaveTextContent(/^51Site 51/);
    expect(calls.map((call) => call.url)).toContain("/api/losses/ranking?days=30&page=2&pageSize=50");
  });

  it("pages only through the sites that lost energy, not the rest of the fleet after them", async () => {
    const profile = makeProfile();
    storeSession(profile);
    // 120 accounted sites, three of which lost energy: they come first on the server's first page.
    const site = (rank: number) => ({
      siteId: `site-${rank}`,
      name: `Site ${rank}`,
      lostValue: rank <= 3 ? 100 - rank : 0,
      lostKwh: rank <= 3 ? 500 - rank : 0,
      mainCause: rank <= 3 ? ("downtime" as const) : null,
    });
    mockApi({
      ...signedInApi(profile),
      "GET /api/losses/ranking": ({ url }) => {
        const page = Number(new URL(url, "http://localhost").searchParams.get("page"));
        const first = (page - 1) * 50 + 1;
        const count = Math.min(50, 120 - first + 1);
        return {
          body: {
            currency: "USD",
            total: 120,
            page,
            pageCount: 3,
            sitesWithLoss: 3,
            sites: Array.from({ length: count }, (_, i) => site(first + i)),
          },
        };
      },
    });
    renderApp("/app/losses");
    const table = await screen.findByRole("table", { name: "Sites by lost value over the last 30 days" });
    expect(within(table).getAllByRole("row")).toHaveLength(4);
    // One page of sites that lost something: no pager leading to pages of sites that did not.
    expect(screen.queryByText(/^Page 1 of/)).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Next" })).not.toBeInTheDocument();
  });

  it("is in the menu, and says so when nothing was lost", async () => {
    const profile = makeProfile();
    storeSession(profile);
    mockApi({
      ...signedInApi(profile),
      "GET /api/losses/ranking": {
        body: { currency: "EUR", total: 0, page: 1, pageCount: 1, sitesWithLoss: 0, sites: [] },
      },
    });
    const { user } = renderApp("/app/dashboard");
    await user.click(await screen.findByRole("link", { name: "Losses" }));
    expect(await screen.findByText("No site lost energy in this window.")).toBeInTheDocument();
  });
});

describe("prices and orientation", () => {
  it("sets a site's price from a day on and shows the one in force", async () => {
    let current = tariffs();
    const { user, calls } = openSite("/app/sites/site-1?tab=price", {
      extra: {
        "GET /api/sites/site-1/tariffs": () => ({ body: current }),
        "PUT /api/sites/site-1/tariff": ({ body }) => {
          const input = body as { currency: "GBP"; pricePerKwh: string; validFrom?: string };
          const price = {
            currency: input.currency,
            pricePerKwh: Number(input.pricePerKwh),
            validFrom: input.validFrom ?? null,
            updatedAt: "2026-06-02T00:00:00Z",
          };
          current = tariffs({ tariffs: [price], current: { ...price, source: "site" } });
          return { body: current };
        },
      },
    });
    expect(await screen.findByTestId("tariff-current")).toHaveTextContent(
      "€0.25/kWh, the organisation's default",
    );
    await user.selectOptions(screen.getByLabelText("Currency"), "GBP");
    await user.type(screen.getByLabelText("Price per kWh"), "0.2875");
    await user.type(screen.getByLabelText("From"), "2026-06-02");
    await user.click(screen.getByRole("button", { name: "Save price" }));
    expect(await findToast("Price saved")).toBeInTheDocument();
    expect(calls.find((call) => call.method === "PUT")?.body).toEqual({
      currency: "GBP",
      pricePerKwh: "0.2875",
      validFrom: "2026-06-02",
    });
    await waitFor(() =>
      expect(screen.getByTestId("tariff-current")).toHaveTextContent("£0.2875/kWh, this site's price"),
    );
    expect(screen.getByRole("table", { name: "Prices of this site" })).toHaveTextContent("2 Jun 2026");
  });

  it("names a refused price's field in the reader's language", async () => {
    const { user } = openSite("/app/sites/site-1?tab=price", {
      extra: {
        "PUT /api/sites/site-1/tariff": {
          status: 400,
          body: {
            error: "Invalid input",
            code: "validation_failed",
            details: [
              { path: ["pricePerKwh"], message: "Price per kWh must not be negative", code: "too_small" },
            ],
          },
        },
      },
    });
    await user.type(await screen.findByLabelText("Price per kWh"), "1");
    await user.click(screen.getByRole("button", { name: "Save price" }));
    expect(await findToast("The price was not saved")).toBeInTheDocument();
  });

  it("lets a plain member read the price but not change it", async () => {
    openSite("/app/sites/site-1?tab=price", { role: "user" });
    expect(
      await screen.findByText("Only members who manage sites can change this price."),
    ).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Save price" })).not.toBeInTheDocument();
  });

  it("shows each system's orientation with where it comes from, and saves a change (blank: the default)", async () => {
    const oriented = makeSiteSystem({
      orientation: {
        tiltDeg: 30,
        azimuthDeg: null,
        acLimitKw: null,
        effective: {
          tiltDeg: 30,
          tiltSource: "system",
          azimuthDeg: 180,
          azimuthSource: "default",
          acLimitKw: 6,
          acLimitSource: "inverters",
        },
      },
    });
    const { user, calls } = openSite("/app/sites/site-1", {
      extra: {
        "GET /api/sites/site-1": { body: makeEnhancedSite({ systems: [oriented] }) },
        "PATCH /api/systems/system-1": ({ body }) => ({ body: { id: "system-1", ...(body as object) } }),
      },
    });
    const table = await screen.findByRole("table", {
      name: "Systems of Warehouse Roof with their orientation",
    });
    const row = within(table).getByRole("rowheader", { name: "Roof East" }).closest("tr") as HTMLElement;
    expect(row).toHaveTextContent("30° (set)");
    expect(row).toHaveTextContent("180° (default)");
    expect(row).toHaveTextContent("6 kW (inverters' rating)");
    await user.click(within(row).getByRole("button", { name: "Edit the orientation of Roof East" }));
    const form = screen.getByRole("form", { name: "Orientation of Roof East" });
    expect(within(form).getByLabelText("Tilt (°)")).toHaveValue(30);
    expect(form).toHaveTextContent("In use: 180° (default)");
    await user.clear(within(form).getByLabelText("Tilt (°)"));
    await user.type(within(form).getByLabelText("Azimuth (°)"), "135");
    await user.type(within(form).getByLabelText("AC limit (kW)"), "5.5");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    expect(await findToast("Orientation saved")).toBeInTheDocument();
    expect(calls.find((call) => call.method === "PATCH")?.body).toEqual({
      tiltDeg: null,
      azimuthDeg: "135",
      acLimitKw: "5.5",
    });
  });
});

describe("lost value this month", () => {
  it("is on the dashboard, in the fleet's currency, linked to the losses", async () => {
    const profile = makeProfile();
    storeSession(profile);
    const { calls } = mockApi({
      ...signedInApi(profile),
      "GET /api/dashboard/summary": { body: makeSummary() },
      "GET /api/dashboard/systems": systemsPages([makeMetric()]),
      "GET /api/sites": { body: [makeFleetSite()] },
      "GET /api/alerts": { body: [] },
      "GET /api/alerts/summary": { body: summaryOf([]) },
      "GET /api/weather/current": { body: makeWeather() },
      "GET /api/dashboard/series": { body: makeFleetSeries() },
      "GET /api/losses": { body: siteReport({ currency: "CHF" }) },
    });
    renderApp("/app/dashboard");
    const value = await screen.findByTestId("fleet-lost-value");
    await waitFor(() => expect(value).toHaveTextContent("CHF 32.50"));
    expect(screen.getByText("130 kWh lost, 13.0% of the expected energy")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "See the losses" })).toHaveAttribute("href", "/app/losses");
    const request = calls.find((call) => call.path === "/api/losses");
    const today = todayIn("UTC");
    expect(request?.url).toBe(`/api/losses?from=${today.slice(0, 7)}-01&to=${today}`);
  });

  it("is on each portfolio", async () => {
    const profile = makeProfile();
    storeSession(profile);
    const { calls } = mockApi({
      ...signedInApi(profile),
      "GET /api/sites": { body: [makeSite()] },
      "GET /api/portfolios": { body: [makePortfolio({ siteCount: 1, siteIds: ["site-1"] })] },
      "GET /api/losses": { body: siteReport({ currency: "GBP" }) },
    });
    renderApp("/app/portfolios");
    const card = await screen.findByRole("article", { name: "North Holland" });
    const stat = within(card).getByText("Lost this month", { selector: "dt" }).parentElement;
    await waitFor(() => expect(stat).toHaveTextContent("£32.50"));
    expect(calls.find((call) => call.path === "/api/losses")?.url).toContain("portfolioId=portfolio-1");
  });

  it("sets the organisation's default price in Settings", async () => {
    const profile = makeProfile();
    storeSession(profile);
    const { calls } = mockApi({
      ...signedInApi(profile),
      "GET /api/sites": { body: [] },
      "GET /api/portfolios": { body: [] },
      "GET /api/organization/tariffs": { body: { tariffs: [], current: null } },
      "PUT /api/organization/tariff": ({ body }) => {
        const input = body as { currency: "USD"; pricePerKwh: string };
        const price = {
          currency: input.currency,
          pricePerKwh: Number(input.pricePerKwh),
          validFrom: null,
          updatedAt: "2026-06-02T00:00:00Z",
        };
        return { body: { tariffs: [price], current: price } };
      },
    });
    const { user } = renderApp("/app/dashboard");
    await user.click(await screen.findByRole("button", { name: "Settings" }));
    await user.click(await screen.findByRole("tab", { name: "Sites & Portfolios" }));
    expect(await screen.findByTestId("org-tariff-current")).toHaveTextContent("No price set");
    await user.selectOptions(screen.getByLabelText("Currency"), "USD");
    await user.type(screen.getByLabelText("Price per kWh"), "0.14");
    await user.click(screen.getByRole("button", { name: "Save price" }));
    expect(await findToast("Price saved")).toBeInTheDocument();
    expect(calls.find((call) => call.method === "PUT")?.body).toEqual({
      currency: "USD",
      pricePerKwh: "0.14",
    });
  });
});
