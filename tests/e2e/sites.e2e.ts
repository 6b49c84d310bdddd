import { readFileSync } from "node:fs";
import path from "node:path";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { screenshot, screenshotDir } from "./browser";
import { api, baseUrl, browserPages, PASSWORD, SOLIS_SANDBOX, withoutAutoSites } from "./helpers";

const newPage = browserPages();

describe("sites, systems and portfolios in the browser", () => {
  it("creates a site from sandbox systems, manages it and groups it into a portfolio", async () => {
    const email = `e2e-sites-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
    const session = await api<{ token: string; user: unknown }>("/api/auth/register", {
      method: "POST",
      body: { email, password: PASSWORD, fullName: "Sam Sites", companyName: "Canal Solar" },
    });
    await withoutAutoSites(session.token);
    await api("/api/credentials", {
      method: "POST",
      token: session.token,
      body: { provider: "solis", credentials: SOLIS_SANDBOX },
    });
    const available = await api<{ name: string; capacity: number | null }[]>("/api/available-systems", {
      token: session.token,
    });
    expect(available.length).toBeGreaterThanOrEqual(2);
    const [first, second] = available;
    if (!first || !second) throw new Error("the sandbox account should offer two systems");

    const page = await newPage({ session, width: 1366 });
    await page.goto(`${baseUrl}/app/create-site`);
    await page.getByRole("heading", { name: "Create New Site", level: 1 }).waitFor();
    await page.getByRole("listitem", { name: first.name }).waitFor();

    await page.getByLabel("Site Name").fill("Keizersgracht Rooftops");
    // Typed like a person, so the autocomplete's 5-character threshold and debounce run for real.
    await page
      .getByLabel("Address", { exact: true })
      .pressSequentially("Keizersgracht 12, Amsterdam", { delay: 20 });
    const suggestion = page.getByRole("option", { name: /Keizersgracht/ });
    await suggestion.waitFor();
    await screenshot(page, "11-create-site-suggestions");
    await suggestion.click();
    await page.getByText("Location set").waitFor();

    await page.getByRole("button", { name: `Add ${first.name}` }).click();
    await page.getByRole("button", { name: `Add ${second.name}` }).click();
    const configured = page.getByRole("list", { name: "Configured Systems" });
    await expect.poll(() => configured.getByRole("listitem").count()).toBe(2);
    await page.getByText("Annual yield").waitFor();
    await expect
      .poll(() =>
        page
          .getByText(/^\d[\d,]* kWh$/)
          .first()
          .isVisible(),
      )
      .toBe(true);
    await screenshot(page, "12-create-site-ready");

    await page.getByRole("button", { name: "Create Site" }).click();
    await page.waitForURL(`${baseUrl}/app/site-management`);
    await page.getByText("Site created", { exact: true }).waitFor();
    const site = page.getByRole("group", { name: "Keizersgracht Rooftops" });
    await site.waitFor();
    await expect.poll(() => page.getByText("Total Systems").locator("..").textContent()).toContain("2");
    await site.getByRole("button", { expanded: false }).click();
    const systems = site.getByRole("table", { name: "Monitoring systems of Keizersgracht Rooftops" });
    await systems.getByRole("row", { name: new RegExp(first.name) }).waitFor();
    await systems.getByRole("row", { name: new RegExp(second.name) }).waitFor();
    // A wide systems table scrolls inside its card; the page itself never scrolls sideways.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBe(0);
    await screenshot(page, "13-site-management");

    // The systems left the available list; the site is stored with its location and zone.
    const stillAvailable = await api<{ name: string }[]>("/api/available-systems", { token: session.token });
    expect(stillAvailable.map((system) => system.name)).not.toContain(first.name);
    const [stored] = await api<{ name: string; timezone: string; systemCount: number }[]>("/api/sites", {
      token: session.token,
    });
    expect(stored).toMatchObject({
      name: "Keizersgracht Rooftops",
      timezone: "Europe/Amsterdam",
      systemCount: 2,
    });

    await page.getByRole("link", { name: "Portfolios" }).first().click();
    await page.waitForURL(`${baseUrl}/app/portfolios`);
    const form = page.getByRole("form", { name: "Create Portfolio" });
    await form.getByLabel("Portfolio Name").fill("Canal Ring");
    await form.getByLabel("Description (optional)").fill("Amsterdam city centre roofs");
    await form.getByRole("button", { name: "Create Portfolio" }).click();
    const portfolio = page.getByRole("article", { name: "Canal Ring" });
    await portfolio.waitFor();
    await portfolio.getByRole("checkbox", { name: /Keizersgracht Rooftops/ }).check();
    await portfolio.getByRole("button", { name: /Add Selected Sites/ }).click();
    await portfolio
      .getByRole("list", { name: "Sites in this portfolio" })
      .getByText("Keizersgracht Rooftops")
      .waitFor();
    await expect
      .poll(() => portfolio.getByText("Sites", { exact: true }).locator("..").textContent())
      .toBe("Sites1");
    await screenshot(page, "14-portfolio");

    // The Solar Sites grid, and a second site added through the Add Site dialog's verified address.
    await page.getByRole("link", { name: "Sites", exact: true }).first().click();
    await page.getByRole("article", { name: "Keizersgracht Rooftops" }).waitFor();
    await page.getByRole("button", { name: "Add Site" }).click();
    const addSite = page.getByRole("dialog");
    await addSite.getByLabel("Site Name").fill("Damrak Office");
    await addSite.getByLabel("Address", { exact: true }).fill("Damrak 1, Amsterdam");
    await addSite.getByLabel("Country").fill("NL");
    await addSite.getByRole("button", { name: "Search" }).click();
    await addSite.getByText("Location verified").waitFor();
    await addSite.getByLabel("Provider").selectOption("fronius");
    await addSite.getByLabel("Capacity (kW)").fill("12.5");
    await screenshot(page, "15-add-site-dialog");
    await addSite.getByRole("button", { name: "Add Site" }).click();
    await page.getByText("Site added successfully").waitFor();
    const damrak = page.getByRole("article", { name: "Damrak Office" });
    await damrak.waitFor();
    await expect.poll(() => damrak.textContent()).toContain("12.5 kW");
    await screenshot(page, "16-sites-grid");

    // The settings tab shows the portfolio's real site count.
    await page.getByRole("button", { name: "Settings" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("tab", { name: "Sites & Portfolios" }).click();
    await dialog.getByRole("list", { name: "Portfolios" }).getByText("1 site").waitFor();
    await dialog.getByText("Full Access").waitFor();
    await screenshot(page, "17-settings-sites-portfolios");
    await page.context().close();
  });
});

describe("plants become sites in the browser", () => {
  it("connects the sandbox, shows a site per plant with its plant and one's weather, and exports the performance table", async () => {
    const email = `e2e-plants-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
    const session = await api<{ token: string; user: unknown }>("/api/auth/register", {
      method: "POST",
      body: { email, password: PASSWORD, fullName: "Pat Plants", companyName: "Polder Solar" },
    });
    const page = await newPage({ session, width: 1366 });

    // Connect the Solis sandbox from the empty dashboard, as a new user would.
    await page.goto(`${baseUrl}/app/dashboard`);
    await page.getByRole("button", { name: "Connect a Provider" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Provider", { exact: true }).selectOption("solis");
    await dialog.getByLabel("API Key ID").fill(SOLIS_SANDBOX.keyId);
    await dialog.getByLabel("API Key Secret").fill(SOLIS_SANDBOX.keySecret);
    await dialog.getByRole("button", { name: "Save Credentials" }).click();
    await dialog.getByText("Configured providers").waitFor();
    await expect
      .poll(() => dialog.getByText("No providers configured yet").count(), { timeout: 30_000 })
      .toBe(0);
    await expect
      .poll(async () => (await api<unknown[]>("/api/sites", { token: session.token })).length, {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(3);
    await screenshot(page, "18-sandbox-connected");
    await page.keyboard.press("Escape");

    // The sandbox's Solis plants carry coordinates: each became a site with the plant attached.
    const sites = await api<{ id: string; name: string; systems: { id: string; systemName: string }[] }[]>(
      "/api/sites/enhanced",
      { token: session.token },
    );
    expect(sites.map((site) => site.systems.length)).toEqual([1, 1, 1]);
    expect(await api<unknown[]>("/api/available-systems", { token: session.token })).toEqual([]);
    const [first] = sites;
    if (!first) throw new Error("no site was made from the plants");
    const plantOf = (site: (typeof sites)[number]) => {
      const name = site.systems[0]?.systemName;
      if (!name) throw new Error(`site ${site.name} has no plant`);
      return name;
    };

    const dashboardReads: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/api/dashboard/")) dashboardReads.push(`${url.pathname}${url.search}`);
    });
    await page.goto(`${baseUrl}/app/site-management`);
    for (const site of sites) {
      // Each site opens onto its plant's row.
      const group = page.getByRole("group", { name: site.name });
      await group.getByRole("button", { expanded: false }).first().click();
      await group.getByRole("cell", { name: plantOf(site), exact: true }).waitFor();
    }
    // A sync's live messages fill each plant's live values, read for its own site only.
    await api("/api/providers/solis/sync", { method: "POST", token: session.token });
    await page
      .getByRole("group", { name: first.name })
      .getByLabel("Real-time data")
      .waitFor({ timeout: 30_000 });
    expect(dashboardReads.some((read) => read.startsWith("/api/dashboard/metrics"))).toBe(false);
    expect(dashboardReads).toContain(
      `/api/dashboard/systems?page=1&pageSize=200&sort=system&direction=asc&siteId=${first.id}`,
    );
    await screenshot(page, "15-sites-from-plants");

    // Weather for one of them: its card with the current weather and the day's history.
    await page.goto(`${baseUrl}/app/weather`);
    const card = page.getByRole("article", { name: first.name });
    await card.waitFor();
    await card
      .getByRole("link", { name: /Open-Meteo/ })
      .first()
      .waitFor();
    await card.getByRole("region", { name: /^Generation and irradiance on / }).waitFor();
    await expect.poll(() => page.getByText("No Weather Data").count()).toBe(0);
    // Every card has finished loading its current weather and its day.
    await expect.poll(() => page.getByText("Loading...").count(), { timeout: 30_000 }).toBe(0);
    await screenshot(page, "16-weather-of-a-plant-site");

    // Export the System Performance table and check the file against what the table shows.
    await page.goto(`${baseUrl}/app/dashboard`);
    const table = page.getByRole("table", { name: /Systems, worst performance ratio first/ });
    await table.waitFor();
    for (const site of sites) await table.getByRole("row", { name: new RegExp(plantOf(site)) }).waitFor();
    const shown = await table
      .locator("tbody tr")
      .evaluateAll((rows) =>
        rows.map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent?.trim() ?? "")),
      );
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("system-performance.csv");
    const file = await download.path();
    const bytes = readFileSync(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const parsed = Papa.parse<Record<string, string>>(bytes.toString("utf8").slice(1), {
      header: true,
      skipEmptyLines: true,
    });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength(shown.length);
    // Each row of the file is a row of the table: the same system, site and provider.
    for (const row of parsed.data) {
      const match = shown.find((cells) => cells.some((cell) => cell.startsWith(row.system ?? "\u0000")));
      expect(match, `table row for ${row.system}`).toBeDefined();
      const text = match?.join(" ") ?? "";
      expect(text).toContain(row.site ?? "");
      expect(text.toLowerCase()).toContain((row.provider ?? "").toLowerCase());
      if (row.inverters !== "0")
        expect(text).toMatch(new RegExp(`${row["inverters online"]}\\D+${row.inverters}`));
    }
    expect(new Set(parsed.data.map((row) => row.system))).toEqual(
      new Set(sites.map((site) => plantOf(site))),
    );
    await page
      .getByRole("table", { name: /Systems, worst performance ratio first/ })
      .screenshot({ path: path.join(screenshotDir, "19-performance-table-exported.png") });
    await page.context().close();
  });
});
