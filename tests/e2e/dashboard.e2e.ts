import { describe, expect, it } from "vitest";
import { screenshot } from "./browser";
import { api, baseUrl, browserPages, PASSWORD, SOLIS_SANDBOX, withoutAutoSites } from "./helpers";

const newPage = browserPages();

interface Metric {
  systemId: string;
  stationName: string;
  provider: string;
  currentPowerW: number;
}

describe("the live dashboard in the browser", () => {
  it("shows the sandbox systems with power in the table and the chart, and stays Live through a sync", async () => {
    const email = `e2e-dash-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
    const session = await api<{ token: string; user: unknown }>("/api/auth/register", {
      method: "POST",
      body: { email, password: PASSWORD, fullName: "Dana Dashboard", companyName: "Tide Solar" },
    });
    await withoutAutoSites(session.token);
    await api("/api/credentials", {
      method: "POST",
      token: session.token,
      body: { provider: "solis", credentials: SOLIS_SANDBOX },
    });
    // The save starts a sync; the three plants appear in the metrics once it has stored them.
    let metrics: Metric[] = [];
    await expect
      .poll(
        async () => {
          metrics = await api<Metric[]>("/api/dashboard/metrics", { token: session.token });
          return metrics.length;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(3);
    expect(metrics.every((metric) => metric.provider === "solis")).toBe(true);

    // One site holding the first plant: the weather panel reads its coordinates.
    const first = metrics[0] as Metric;
    const site = await api<{ id: string }>("/api/sites", {
      method: "POST",
      token: session.token,
      body: {
        name: "Canal Roofs",
        address: "Keizersgracht 12, Amsterdam",
        latitude: 52.3541,
        longitude: 4.8769,
        provider: "solis",
      },
    });
    await api(`/api/sites/${site.id}/systems`, {
      method: "POST",
      token: session.token,
      body: { systemId: first.systemId },
    });

    const page = await newPage({ session, width: 1440 });
    const apiPaths: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/api/")) apiPaths.push(url.pathname);
    });
    const frames: string[] = [];
    page.on("websocket", (socket) => {
      socket.on("framereceived", (frame) => {
        if (typeof frame.payload === "string") frames.push(frame.payload);
      });
    });
    await page.goto(`${baseUrl}/app/dashboard`);
    const table = page.getByRole("table", { name: /Systems, worst performance ratio first/ });
    await table.waitFor();
    for (const metric of metrics) {
      const row = table.getByRole("row", { name: new RegExp(metric.stationName) });
      await row.waitFor();
      // Power with its unit (or Stale with its data time), never a bare number.
      await expect.poll(() => row.textContent()).toMatch(/\d (W|kW)|Stale/);
    }
    // The chart draws the fleet's hourly power by provider (flat at night: the sandbox plants are in Europe).
    await page.getByText("Real-Time Generation by Provider").waitFor();
    await page.locator(".recharts-wrapper").first().waitFor();
    await page.getByText(/^Whole fleet, updated /).waitFor();
    await page.getByText("Provider Summary").waitFor();
    await page.getByText("Weather data by Open-Meteo.com").waitFor();
    await page.getByText("At Canal Roofs").waitFor();
    await expect.poll(() => page.getByTestId("nav-badge-/app/sites").textContent()).toBe("1");
    const banner = page.getByRole("banner");
    await banner.getByText("Live", { exact: true }).waitFor();
    await screenshot(page, "2x-dashboard");
    // The first screen reads the fleet's totals and one page of systems, never every system's entry.
    expect(apiPaths).toContain("/api/dashboard/summary");
    expect(apiPaths).toContain("/api/dashboard/systems");
    expect(apiPaths).not.toContain("/api/dashboard/metrics");

    // The page is longer than the window: the sidebar's background reaches its bottom, and the
    // navigation stays in view when scrolled there.
    const layout = await page.evaluate(() => {
      const rect = document.querySelector("aside")?.getBoundingClientRect();
      return {
        pageHeight: document.documentElement.scrollHeight,
        windowHeight: window.innerHeight,
        sidebarTop: rect ? rect.top + window.scrollY : null,
        sidebarBottom: rect ? rect.bottom + window.scrollY : null,
      };
    });
    expect(layout.pageHeight, JSON.stringify(layout)).toBeGreaterThan(layout.windowHeight + 200);
    expect(layout.sidebarTop, JSON.stringify(layout)).toBe(0);
    expect(layout.sidebarBottom, JSON.stringify(layout)).toBeGreaterThanOrEqual(layout.pageHeight);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const navigation = page.getByRole("navigation", { name: "Main navigation" });
    const navigationTop = await navigation.evaluate((nav) => nav.getBoundingClientRect().top);
    expect(navigationTop).toBeGreaterThanOrEqual(0);
    expect(navigationTop).toBeLessThan(layout.windowHeight);
    await page.evaluate(() => window.scrollTo(0, 0));

    // A sync publishes each plant's values over the socket (a page's plants in one batch frame);
    // the indicator stays Live.
    const before = frames.length;
    const updatesIn = (frame: string) => frame.split('"solis_realtime_update"').length - 1;
    // The first sync goes on as a history backfill; it makes way for a member's sync, which is
    // answered at once rather than refused.
    await api("/api/providers/solis/sync", { method: "POST", token: session.token });
    await expect
      .poll(() => frames.slice(before).reduce((n, frame) => n + updatesIn(frame), 0), {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(3);
    await banner.getByText("Live", { exact: true }).waitFor();
    expect(await banner.getByText("Reconnecting").count()).toBe(0);
    for (const metric of metrics) {
      await table.getByRole("row", { name: new RegExp(metric.stationName) }).waitFor();
    }
    await screenshot(page, "2x-dashboard-after-sync");
    expect(apiPaths).not.toContain("/api/dashboard/metrics");
    await page.context().close();
  }, 150_000);
});
