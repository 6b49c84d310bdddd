import { describe, expect, it } from "vitest";
import { screenshot } from "./browser";
import {
  api,
  baseUrl,
  browserPages,
  expectConsoleError,
  PASSWORD,
  SOLIS_SANDBOX,
  withoutAutoSites,
} from "./helpers";

const newPage = browserPages();

interface Record {
  systemId: string;
  stationName: string;
  provider: string;
}

describe("analytics, weather and the demo in the browser", () => {
  it("lists the sandbox systems, opens one and walks through its tabs", async () => {
    const email = `e2e-analytics-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
    const session = await api<{ token: string; user: unknown }>("/api/auth/register", {
      method: "POST",
      body: { email, password: PASSWORD, fullName: "Ana Analyst", companyName: "Prism Energy" },
    });
    await api("/api/credentials", {
      method: "POST",
      token: session.token,
      body: { provider: "solis", credentials: SOLIS_SANDBOX },
    });
    const records = await api<Record[]>("/api/analytics?system=all&range=24h", { token: session.token });
    expect(records.length).toBeGreaterThanOrEqual(2);
    const [first] = records as [Record];

    const page = await newPage({ session });
    await page.goto(`${baseUrl}/app/analytics`);
    await page.getByRole("heading", { name: "Performance Analytics", level: 1 }).waitFor();
    await page.getByRole("link", { name: first.stationName }).waitFor();
    await page.getByRole("button", { name: /^Solis/ }).click();
    expect(await page.getByRole("link", { name: first.stationName }).isVisible()).toBe(true);
    await page.getByRole("button", { name: /^Fronius/ }).click();
    await page.getByText("No systems from Fronius.").waitFor();
    await page.getByRole("button", { name: /^All/ }).click();
    await screenshot(page, "3x-analytics-list");

    await page.getByRole("link", { name: first.stationName }).click();
    await page.waitForURL(`${baseUrl}/app/analytics/${first.systemId}`);
    await page.getByRole("heading", { name: first.stationName, level: 1 }).waitFor();
    await page.getByRole("tab", { name: "Overview" }).waitFor();
    await page.getByText("Capacity factor").waitFor();
    await page.getByText("Power curve").waitFor();

    await page.getByRole("tab", { name: "Performance" }).click();
    await page.getByText("Actual vs expected energy per day").waitFor();
    await page.getByRole("tab", { name: "Inverters" }).click();
    await page.getByRole("columnheader", { name: "Serial number" }).waitFor();
    await page.getByRole("tab", { name: "Environmental" }).click();
    await page.getByText("CO₂ avoided").waitFor();
    await page.getByRole("button", { name: "24 hours" }).click();
    await page.getByRole("tab", { name: "Overview" }).click();
    await page.getByText("5-minute readings, last 24 hours").waitFor();
    await page.getByText("Current power").first().waitFor();
    await screenshot(page, "3x-analytics-detail");

    await page.getByRole("link", { name: "Back to Analytics" }).click();
    await page.waitForURL(`${baseUrl}/app/analytics`);

    // An unknown system answers 404: the browser logs the failed request and the query cache the error.
    expectConsoleError(page, /404 \(Not Found\).*system=not-a-system/);
    expectConsoleError(page, /Query failed: \/api\/analytics\?system=not-a-system/);
    await page.goto(`${baseUrl}/app/analytics/not-a-system`);
    await page.getByText("Site Not Found").waitFor();
    await page.context().close();
  });

  it("shows the weather beside the day's generation against irradiance of a site", async () => {
    const email = `e2e-weather-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
    const session = await api<{ token: string; user: unknown }>("/api/auth/register", {
      method: "POST",
      body: { email, password: PASSWORD, fullName: "Wes Weather", companyName: "Cloudline Solar" },
    });
    const emptyPage = await newPage({ session });
    await emptyPage.goto(`${baseUrl}/app/weather`);
    await emptyPage.getByText("No Weather Data").waitFor();
    await emptyPage.context().close();

    await withoutAutoSites(session.token);
    await api("/api/credentials", {
      method: "POST",
      token: session.token,
      body: { provider: "solis", credentials: SOLIS_SANDBOX },
    });
    const records = await api<Record[]>("/api/analytics?system=all&range=24h", { token: session.token });
    const site = await api<{ id: string }>("/api/sites", {
      method: "POST",
      token: session.token,
      body: {
        name: "Canal Rooftops",
        address: "Keizersgracht 12, Amsterdam",
        latitude: 52.37,
        longitude: 4.89,
        provider: "solis",
      },
    });
    for (const record of records.slice(0, 2)) {
      await api(`/api/sites/${site.id}/systems`, {
        method: "POST",
        token: session.token,
        body: { systemId: record.systemId },
      });
    }

    const page = await newPage({ session });
    await page.goto(`${baseUrl}/app/weather`);
    const card = page.getByRole("article", { name: "Canal Rooftops" });
    await card.waitFor();
    await card.getByText(/^(Clear Sky|Partly Cloudy|Cloudy)$/).waitFor();
    await card.getByRole("link", { name: "Weather data by Open-Meteo.com (CC BY 4.0)" }).waitFor();
    await card.getByText(/^Generation and irradiance on /).waitFor();
    // The sync's readings give today's hourly power; irradiance depends on the hourly job having run.
    await card
      .getByText(/^(Power, kW|No irradiance recorded for this day yet)$/)
      .first()
      .waitFor();
    await screenshot(page, "3x-weather");
    await page.context().close();
  });

  it("runs the public demo with its totals, tabs and controls", async () => {
    const page = await newPage();
    await page.goto(`${baseUrl}/demo`);
    await page.getByText("Total capacity").waitFor();
    await page.getByText("1,425 kW").waitFor();
    await page.getByText("Monthly target: 78%").waitFor();
    await screenshot(page, "3x-demo");

    const clock = page.getByText(/^Simulated time:/);
    const before = await clock.textContent();
    await expect.poll(() => clock.textContent(), { timeout: 10_000 }).not.toBe(before);
    await page.getByRole("button", { name: "Live" }).click();
    await page.getByRole("button", { name: "Paused" }).waitFor();

    await page.getByRole("tab", { name: "Solar Sites" }).click();
    await page.getByRole("button", { name: /Pine Ridge Rooftops/ }).click();
    expect(await page.getByRole("button", { name: /Pine Ridge Rooftops/ }).getAttribute("aria-pressed")).toBe(
      "true",
    );
    await page.getByRole("tab", { name: "Analytics" }).click();
    await page.getByText("Generation by site today").waitFor();
    await page.locator(".recharts-surface").first().waitFor();
    await screenshot(page, "3x-demo-analytics");

    await page.getByRole("button", { name: "Reset" }).click();
    await page.getByRole("button", { name: "Live" }).waitFor();
    await page.getByRole("tab", { name: "Settings" }).click();
    expect(await page.getByText("Connected", { exact: true }).count()).toBe(5);
    await page.getByRole("link", { name: "Start Free Trial" }).click();
    await page.waitForURL(`${baseUrl}/login`);
    await page.context().close();
  });
});
