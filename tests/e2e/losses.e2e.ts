import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../sandbox/accounts";
import { type RunningApp, startApp } from "./app-server";
import { screenshot } from "./browser";
import { apiAt, browserPages, PASSWORD, type Session, uniqueEmail } from "./helpers";

const newPage = browserPages();

/*
 * This file runs on an app of its own. Locally a queue hands its consumer one message at a time
 * (in production invocations run side by side), and on the app the files share every earlier
 * file's connections are still backfilling their 30 days, a minute-long invocation each in turn:
 * this account's history waited behind them for longer than the whole test allows.
 */
let app: RunningApp;
let baseUrl = "";
let api: ReturnType<typeof apiAt>;
beforeAll(async () => {
  app = await startApp();
  baseUrl = app.baseUrl;
  api = apiAt(baseUrl);
}, 120_000);
afterAll(() => app?.stop());

/** The sandbox's losses account (sandbox/losses.ts): five plants with known losses over any 30 days. */
const lossesAccount = sandboxAccounts.fronius.find((account) => "losses" in account);

interface Ranking {
  currency: string | null;
  sites: {
    siteId: string;
    name: string;
    lostValue: number | null;
    lostKwh: number;
    mainCause: string | null;
  }[];
}

/** What the screens say in each language, and how money is written there. */
const languages = {
  en: {
    locale: "en-GB",
    page: "Losses",
    window: "30 days",
    caption: "Sites by lost value over the last 30 days",
    tab: "Losses",
    waterfall: /Expected energy, each loss category and actual energy/,
    expected: "Expected",
    weather: "Weather",
  },
  es: {
    locale: "es-ES",
    page: "Pérdidas",
    window: "30 días",
    caption: "Instalaciones por valor perdido en los últimos 30 días",
    tab: "Pérdidas",
    waterfall: /Energía esperada, cada categoría de pérdida y energía real/,
    expected: "Esperada",
    weather: "Tiempo",
  },
  fr: {
    locale: "fr-FR",
    page: "Pertes",
    window: "30 jours",
    caption: "Sites par valeur perdue sur les 30 derniers jours",
    tab: "Pertes",
    waterfall: /Énergie attendue, chaque catégorie de pertes et énergie réelle/,
    expected: "Attendue",
    weather: "Météo",
  },
} as const;

/**
 * Runs the app's five-minute cron (as scripts/start.mjs does between its own runs) until the
 * ranking shows the account's plants with losses and stays the same from one run to the next: the
 * sync brought the plants and their sites, the history run their past 30 days, the irradiance job
 * the weather of those days, and the fleet store's accounting their losses.
 */
async function waitForRanking(token: string, plants: number): Promise<Ranking> {
  const deadline = Date.now() + 360_000;
  let previous = "";
  let ranking: Ranking = { currency: null, sites: [] };
  while (Date.now() < deadline) {
    await fetch(`${baseUrl}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`).catch(() => undefined);
    ranking = await api<Ranking>("/api/losses/ranking?days=30", { token });
    const current = JSON.stringify(ranking);
    if (ranking.sites.filter((site) => site.lostKwh > 0).length >= plants && current === previous)
      return ranking;
    previous = current;
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
  throw new Error(`the ranking did not settle in time: ${JSON.stringify(ranking)}`);
}

describe("losses in the browser", () => {
  it("ranks the fleet's sites by lost value and opens a site's Losses tab, in English, Spanish and French", {
    timeout: 600_000,
  }, async () => {
    if (!lossesAccount || !("accessKeyId" in lossesAccount))
      throw new Error("no losses account in the sandbox");
    const session = await api<Session>("/api/auth/register", {
      method: "POST",
      body: {
        email: uniqueEmail("e2e-losses"),
        password: PASSWORD,
        fullName: "Lena Losses",
        companyName: "Shortfall Solar",
      },
    });
    await api("/api/credentials", {
      method: "POST",
      token: session.token,
      body: {
        provider: "fronius",
        credentials: {
          accessKeyId: lossesAccount.accessKeyId,
          accessKeyValue: lossesAccount.accessKeyValue,
        },
      },
    });
    await api("/api/organization/tariff", {
      method: "PUT",
      token: session.token,
      body: { currency: "EUR", pricePerKwh: 0.25 },
    });
    // The healthy reference plant loses next to nothing; the other four lose what was injected.
    const ranking = await waitForRanking(session.token, 4);
    expect(ranking.currency).toBe("EUR");
    const values = ranking.sites.map((site) => site.lostValue ?? 0);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    const [worst] = ranking.sites;
    if (!worst) throw new Error("no site ranked");

    for (const [language, words] of Object.entries(languages)) {
      await api("/api/user/preferences", { method: "PATCH", token: session.token, body: { language } });
      const page = await newPage({ session, timeoutMs: 30_000 });
      await page.goto(`${baseUrl}/app/losses`);
      await page.getByRole("heading", { name: words.page, level: 1 }).waitFor();
      await page.getByRole("tab", { name: words.window, selected: true }).waitFor();
      const table = page.getByRole("table", { name: words.caption });
      await table.waitFor();
      const firstRow = table.getByRole("row").nth(1);
      const money = new Intl.NumberFormat(words.locale, {
        style: "currency",
        currency: "EUR",
        ...(Math.abs(worst.lostValue ?? 0) >= 10_000
          ? { minimumFractionDigits: 0, maximumFractionDigits: 0 }
          : {}),
      }).format(worst.lostValue ?? 0);
      expect(await firstRow.textContent()).toContain(worst.name);
      expect((await firstRow.textContent())?.replace(/\s/g, " ")).toContain(money.replace(/\s/g, " "));
      await screenshot(page, `losses-ranking-${language}`);

      await firstRow.getByRole("link", { name: worst.name }).click();
      await page.waitForURL(`${baseUrl}/app/sites/${worst.siteId}?tab=losses`);
      await page.getByRole("tab", { name: words.tab, selected: true }).waitFor();
      const waterfall = page.getByRole("table", { name: words.waterfall });
      await waterfall.waitFor();
      await waterfall.getByRole("rowheader", { name: words.expected, exact: true }).waitFor();
      await waterfall.getByRole("rowheader", { name: words.weather, exact: true }).waitFor();
      // The days stacked by category load with the chart library, after the figures.
      await page.locator(".recharts-surface").first().waitFor();
      await screenshot(page, `losses-site-${language}`);
      await page.context().close();
    }

    // The dashboard's line: the fleet's lost value this month, in euros the French way.
    const month = await api<{ currency: string | null; totals: { lostValue: number | null } }>(
      `/api/losses?from=${new Date().toISOString().slice(0, 7)}-01&to=${new Date().toISOString().slice(0, 10)}`,
      { token: session.token },
    );
    const page = await newPage({ session, timeoutMs: 30_000 });
    await page.goto(`${baseUrl}/app/dashboard`);
    const lost = page.getByTestId("fleet-lost-value");
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="fleet-lost-value"]')?.textContent?.includes("€"),
    );
    if (month.totals.lostValue !== null) {
      expect((await lost.textContent())?.replace(/\s/g, " ")).toContain(
        new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" })
          .format(month.totals.lostValue)
          .replace(/\s/g, " "),
      );
    }
    await page.getByRole("link", { name: "Voir les pertes" }).waitFor();
    await screenshot(page, "losses-dashboard-fr");
  });
});
