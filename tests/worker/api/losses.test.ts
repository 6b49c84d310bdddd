import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import { LOSS_PLANTS, type LossScenario, lossTruth } from "../../../sandbox/losses";
import type { Alert } from "../../../schema/api/alerts";
import {
  type LossesAnswer,
  type LossRankingAnswer,
  lossesAnswerSchema,
  lossRankingAnswerSchema,
} from "../../../schema/api/losses";
import { lossCategories } from "../../../schema/loss-categories";
import { shiftDate } from "../../../worker/domain/losses/days";
import { createDb } from "../../../worker/lib/db";
import { localBudget } from "../../../worker/providers/budget";
import { froniusAdapter } from "../../../worker/providers/fronius";
import { backfillConnection } from "../../../worker/sync/history-backfill";
import { availableSystems, storeOf } from "../fleet-helpers";
import { call, expectError, expectStatus, putOrgTariff, registerOwner, type TestUser } from "../helpers";

/*
 * Losses through the real runtime, on the real clock: the sandbox's losses account is connected,
 * its past 30 days come through the vendor's history with the weather service's past hours for
 * its places, the fleet store accounts the days, and the API answers them. Every category
 * is checked against what the sandbox injected (sandbox/losses.ts).
 */

const account = sandboxAccounts.fronius.find((a) => "losses" in a);
if (!account) throw new Error("no losses account");
const SLOW = 240_000;

interface Fleet {
  owner: TestUser;
  /** Site id per scenario. */
  sites: Map<LossScenario, string>;
  systems: Map<LossScenario, string>;
}

async function connectLossesAccount(): Promise<Fleet> {
  const owner = await registerOwner();
  await expectStatus(
    await call("/api/organization/settings", {
      method: "PATCH",
      token: owner.token,
      body: { autoCreateSites: false },
    }),
    200,
  );
  await expectStatus(
    await call("/api/credentials", {
      method: "POST",
      token: owner.token,
      body: {
        provider: "fronius",
        credentials: { accessKeyId: account?.accessKeyId, accessKeyValue: account?.accessKeyValue },
      },
    }),
    201,
  );
  const plants = await availableSystems(owner);
  expect(plants).toHaveLength(LOSS_PLANTS.length);
  // A site per plant, at the vendor's coordinates.
  await expectStatus(
    await call("/api/sites/from-systems", { method: "POST", token: owner.token, body: {} }),
    201,
  );
  const connection = await env.DB.prepare(
    "SELECT id FROM provider_connections WHERE org_id = ? AND provider = 'fronius'",
  )
    .bind(owner.orgId)
    .first<{ id: string }>();
  const sandbox = createSandbox();
  const credentials = {
    accessKeyId: account?.accessKeyId ?? "",
    accessKeyValue: account?.accessKeyValue ?? "",
  };
  await backfillConnection(
    {
      db: createDb(env.DB),
      env,
      now: () => Date.now(),
      fetch: (request: Request) => Promise.resolve(sandbox.fetch(request)),
      sleep: async () => {},
      budget: localBudget(froniusAdapter.callPlan(credentials)),
    },
    connection?.id ?? "",
  );
  // The weather service's past hours came with the history: each site's place reaches back over it.
  const places = await env.DB.prepare(
    `SELECT f.location_key, f.history_from, (SELECT count(*) FROM irradiance_hourly h
       WHERE h.location_key = f.location_key AND h.direct_wm2 IS NOT NULL) AS hours
     FROM irradiance_fetches f WHERE f.location_key IN (
       SELECT printf('%.2f,%.2f', s.latitude, s.longitude) FROM sites s WHERE s.org_id = ?)`,
  )
    .bind(owner.orgId)
    .all<{ location_key: string; history_from: number | null; hours: number }>();
  expect(places.results).toHaveLength(LOSS_PLANTS.length);
  for (const place of places.results) {
    expect(place.history_from ?? Date.now()).toBeLessThanOrEqual(Date.now() - 31 * 86_400_000);
    expect(place.hours).toBeGreaterThanOrEqual(31 * 24);
  }
  const settled = await storeOf(owner.orgId).settleLosses(owner.orgId, Date.now());
  expect(settled.remaining).toBe(0);
  // What the passes cost, as SQLite counts it: queueing reads the directory, and every accounted
  // day read its points (5-minute, at least a daylight's worth) and wrote its account. (The
  // store's alarm may have accounted some days already, a minute after history stored them.)
  expect(settled.rowsRead).toBeGreaterThan(settled.daysAccounted * 100 + LOSS_PLANTS.length);
  expect(settled.rowsWritten).toBeGreaterThanOrEqual(settled.daysAccounted);
  const rows = await env.DB.prepare("SELECT id, name, site_id FROM monitoring_systems WHERE org_id = ?")
    .bind(owner.orgId)
    .all<{ id: string; name: string; site_id: string }>();
  const sites = new Map<LossScenario, string>();
  const systems = new Map<LossScenario, string>();
  for (const plant of LOSS_PLANTS) {
    const row = rows.results.find((r) => r.name === plant.name);
    if (!row) throw new Error(`no system for ${plant.name}`);
    sites.set(plant.scenario, row.site_id);
    systems.set(plant.scenario, row.id);
  }
  return { owner, sites, systems };
}

function plantOf(scenario: LossScenario) {
  const plant = LOSS_PLANTS.find((p) => p.scenario === scenario);
  if (!plant) throw new Error(scenario);
  return plant;
}

async function expectCode(res: Response, status: number, code: string) {
  expect((await expectError(res, status)).code).toBe(code);
}

async function losses(owner: TestUser, query: string): Promise<LossesAnswer> {
  return lossesAnswerSchema.parse(
    await expectStatus(await call(`/api/losses?${query}`, { token: owner.token }), 200),
  );
}

/** The site's answer over its accounted days, and what the sandbox injected on those days. */
async function siteLosses(fleet: Fleet, scenario: LossScenario, from: string, to: string) {
  const answer = await losses(fleet.owner, `siteId=${fleet.sites.get(scenario)}&from=${from}&to=${to}`);
  const plant = plantOf(scenario);
  const truth = { downtime: 0, partialOutage: 0, clipping: 0, soiling: 0, actual: 0 };
  for (const day of answer.days) {
    const injected = lossTruth(plant, day.date);
    truth.downtime += injected.downtimeWh / 1000;
    truth.partialOutage += injected.partialOutageWh / 1000;
    truth.clipping += injected.clippingWh / 1000;
    truth.soiling += injected.soilingWh / 1000;
    truth.actual += injected.actualWh / 1000;
  }
  return { answer, truth };
}

const within = (value: number, target: number, share: number) => {
  expect(value).toBeGreaterThanOrEqual(target * (1 - share));
  expect(value).toBeLessThanOrEqual(target * (1 + share));
};

describe("losses of the sandbox's losses account", () => {
  let fleet: Fleet;
  const today = new Date().toISOString().slice(0, 10);
  const from = shiftDate(today, -32);

  beforeAll(async () => {
    fleet = await connectLossesAccount();
  }, SLOW);

  it("accounts the backfilled days, each adding up to expected", async () => {
    for (const plant of LOSS_PLANTS) {
      const { answer } = await siteLosses(fleet, plant.scenario, from, today);
      // History reaches 30 days back; a day is accounted once it is over and its weather is in.
      expect(answer.days.length, plant.name).toBeGreaterThanOrEqual(28);
      for (const day of answer.days) {
        const lost = lossCategories.reduce((sum, category) => sum + day.losses[category], 0);
        expect(day.actualKwh + lost, `${plant.name} ${day.date}`).toBeCloseTo(day.expectedKwh, 2);
      }
      const totalLost = lossCategories.reduce((sum, category) => sum + answer.totals.losses[category], 0);
      expect(answer.totals.actualKwh + totalLost).toBeCloseTo(answer.totals.expectedKwh, 1);
      expect(answer.totals.weatherKwh).toBeGreaterThan(0);
    }
  });

  it("loses less than 3 % of expected on the healthy reference plant", async () => {
    const { answer, truth } = await siteLosses(fleet, "reference", from, today);
    within(answer.totals.actualKwh, truth.actual, 0.001);
    const lost = answer.totals.expectedKwh - answer.totals.actualKwh;
    expect(Math.abs(lost) / answer.totals.expectedKwh).toBeLessThan(0.03);
  });

  it("counts every injected loss in its category", async () => {
    const outages = await siteLosses(fleet, "outages", from, today);
    expect(outages.truth.downtime).toBeGreaterThan(0);
    within(outages.answer.totals.losses.downtime, outages.truth.downtime, 0.05);

    const clipping = await siteLosses(fleet, "clipping", from, today);
    within(clipping.answer.totals.losses.clipping, clipping.truth.clipping, 0.2);

    // History gives no inverter data: the outage shows as hours held at half of expected.
    const inverter = await siteLosses(fleet, "inverter", from, today);
    expect(inverter.truth.partialOutage).toBeGreaterThan(0);
    within(inverter.answer.totals.losses.partialOutage, inverter.truth.partialOutage, 0.1);

    const soiling = await siteLosses(fleet, "soiling", from, today);
    expect(soiling.truth.soiling).toBeGreaterThan(0);
    within(soiling.answer.totals.losses.soiling, soiling.truth.soiling, 0.3);

    for (const { answer } of [outages, clipping, inverter, soiling]) {
      expect(Math.abs(answer.totals.losses.underperformance)).toBeLessThan(0.03 * answer.totals.expectedKwh);
    }
  });

  it("values each day's energy, and each alert's lost energy, at the price in force that day", async () => {
    const { owner, sites } = fleet;
    const change = shiftDate(today, -10);
    for (const body of [
      { currency: "EUR", pricePerKwh: 0.25 },
      { currency: "EUR", pricePerKwh: 0.4, validFrom: change },
    ]) {
      await expectStatus(await putOrgTariff(owner, body), 200);
    }
    const clippingSite = sites.get("clipping") ?? "";
    await expectStatus(
      await call(`/api/sites/${clippingSite}/tariff`, {
        method: "PUT",
        token: owner.token,
        body: { currency: "EUR", pricePerKwh: 0.1 },
      }),
      200,
    );
    const outages = await losses(owner, `siteId=${sites.get("outages")}&from=${from}&to=${today}`);
    expect(outages.currency).toBe("EUR");
    for (const day of outages.days) {
      const price = day.date >= change ? 0.4 : 0.25;
      expect(day.lostValue, day.date).toBeCloseTo((day.expectedKwh - day.actualKwh) * price, 1);
    }
    const expectedRevenue = outages.days.reduce(
      (sum, day) => sum + day.actualKwh * (day.date >= change ? 0.4 : 0.25),
      0,
    );
    expect(outages.totals.revenue).toBeCloseTo(expectedRevenue, 0);
    const clipping = await losses(owner, `siteId=${clippingSite}&from=${from}&to=${today}`);
    for (const day of clipping.days) {
      expect(day.lostValue).toBeCloseTo((day.expectedKwh - day.actualKwh) * 0.1, 1);
    }

    // Alerts carry their lost energy's value at the price of the day they opened.
    const insertAlert = (id: string, systemId: string, createdAt: number, lostWh: number) =>
      env.DB.prepare(
        `INSERT INTO alerts (id, org_id, system_id, title, message, severity, created_at, resolved, rule, lost_energy_wh)
         VALUES (?, ?, ?, 'No production', 'No production', 'critical', ?, 0, 'no_production', ?)`,
      )
        .bind(id, owner.orgId, systemId, createdAt, lostWh)
        .run();
    const recent = crypto.randomUUID();
    const older = crypto.randomUUID();
    const clipped = crypto.randomUUID();
    await insertAlert(recent, fleet.systems.get("outages") ?? "", Date.now() - 3_600_000, 12_400);
    await insertAlert(older, fleet.systems.get("outages") ?? "", Date.now() - 20 * 86_400_000, 10_000);
    await insertAlert(clipped, fleet.systems.get("clipping") ?? "", Date.now() - 3_600_000, 5_000);
    const alerts = await expectStatus<Alert[]>(
      await call("/api/alerts?limit=50", { token: owner.token }),
      200,
    );
    const alertOf = (id: string) => alerts.find((alert) => alert.id === id);
    expect(alertOf(recent)).toMatchObject({ lostEnergyKwh: 12.4, lostValue: 4.96, currency: "EUR" });
    expect(alertOf(older)).toMatchObject({ lostEnergyKwh: 10, lostValue: 2.5, currency: "EUR" });
    expect(alertOf(clipped)).toMatchObject({ lostEnergyKwh: 5, lostValue: 0.5, currency: "EUR" });

    const ranking = lossRankingAnswerSchema.parse(
      await expectStatus<LossRankingAnswer>(
        await call("/api/losses/ranking?days=30", { token: owner.token }),
        200,
      ),
    );
    expect(ranking.currency).toBe("EUR");
    expect(ranking.sites).toHaveLength(LOSS_PLANTS.length);
    const values = ranking.sites.map((site) => site.lostValue ?? 0);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    const causeOf = (scenario: LossScenario) =>
      ranking.sites.find((site) => site.siteId === sites.get(scenario))?.mainCause;
    expect(causeOf("outages")).toBe("downtime");
    expect(causeOf("clipping")).toBe("clipping");
    expect(causeOf("inverter")).toBe("partialOutage");
    expect(causeOf("soiling")).toBe("soiling");
    expect(ranking).toMatchObject({ total: LOSS_PLANTS.length, page: 1, pageCount: 1 });
    // The sites that lost energy lead the ranking, and the answer says how many they are.
    const losing = ranking.sites.filter((site) => site.lostKwh > 0);
    expect(losing.length).toBeGreaterThanOrEqual(4);
    expect(ranking.sitesWithLoss).toBe(losing.length);
    expect(ranking.sites.slice(0, ranking.sitesWithLoss)).toEqual(losing);

    // A page at a time: the same order, the count and the other pages in the headers.
    const paged: LossRankingAnswer["sites"] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await call(`/api/losses/ranking?days=30&pageSize=2&page=${page}`, { token: owner.token });
      expect(res.headers.get("X-Total-Count")).toBe(String(LOSS_PLANTS.length));
      if (page === 1) expect(res.headers.get("Link")).toContain('pageSize=2&page=2>; rel="next"');
      const answer = lossRankingAnswerSchema.parse(await expectStatus<LossRankingAnswer>(res, 200));
      expect(answer).toMatchObject({ total: LOSS_PLANTS.length, page, pageCount: 3 });
      paged.push(...answer.sites);
    }
    expect(paged).toEqual(ranking.sites);
  });

  it("answers a system's and a portfolio's losses, and the days as CSV", async () => {
    const { owner, sites, systems } = fleet;
    const site = await losses(owner, `siteId=${sites.get("outages")}&from=${from}&to=${today}`);
    const system = await losses(owner, `systemId=${systems.get("outages")}&from=${from}&to=${today}`);
    expect(system.totals.expectedKwh).toBe(site.totals.expectedKwh);
    const portfolio = await expectStatus<{ id: string }>(
      await call("/api/portfolios", { method: "POST", token: owner.token, body: { name: "Losses" } }),
      201,
    );
    await expectStatus(
      await call(`/api/portfolios/${portfolio.id}/sites`, {
        method: "POST",
        token: owner.token,
        body: { siteIds: [sites.get("outages"), sites.get("reference")] },
      }),
      200,
    );
    const both = await losses(owner, `portfolioId=${portfolio.id}&from=${from}&to=${today}`);
    const reference = await losses(owner, `siteId=${sites.get("reference")}&from=${from}&to=${today}`);
    expect(both.totals.expectedKwh).toBeCloseTo(site.totals.expectedKwh + reference.totals.expectedKwh, 2);
    // Without a scope: the whole fleet.
    const fleetWide = await losses(owner, `from=${from}&to=${today}`);
    let sum = 0;
    for (const plant of LOSS_PLANTS) {
      sum += (await losses(owner, `siteId=${sites.get(plant.scenario)}&from=${from}&to=${today}`)).totals
        .expectedKwh;
    }
    expect(fleetWide.totals.expectedKwh).toBeCloseTo(sum, 1);

    const csv = await call(`/api/losses?siteId=${sites.get("outages")}&from=${from}&to=${today}&format=csv`, {
      token: owner.token,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    const lines = (await csv.text()).replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe(
      "date,expectedKwh,actualKwh,downtimeKwh,partialOutageKwh,clippingKwh,soilingKwh,underperformanceKwh,unmeasuredKwh,lostValue,currency",
    );
    expect(lines).toHaveLength(site.days.length + 1);
    expect(lines[1]?.startsWith(`${site.days[0]?.date},${site.days[0]?.expectedKwh},`)).toBe(true);
  });

  it("refuses bad periods and scopes with 400 and another organisation's ids with 404", async () => {
    const { owner, sites, systems } = fleet;
    const site = sites.get("reference");
    for (const query of [
      `siteId=${site}&from=${today}&to=${shiftDate(today, -1)}`,
      `siteId=${site}&from=${shiftDate(today, -400)}&to=${today}`,
      `siteId=${site}&from=2026-02-30&to=${today}`,
      `siteId=${site}&systemId=${systems.get("reference")}&from=${from}&to=${today}`,
    ]) {
      await expectCode(await call(`/api/losses?${query}`, { token: owner.token }), 400, "validation_failed");
    }
    for (const query of ["days=14", "days=30&pageSize=0", "days=30&pageSize=1001", "days=30&page=0"]) {
      await expectCode(
        await call(`/api/losses/ranking?${query}`, { token: owner.token }),
        400,
        "validation_failed",
      );
    }
    const stranger = await registerOwner();
    await expectCode(
      await call(`/api/losses?siteId=${site}&from=${from}&to=${today}`, { token: stranger.token }),
      404,
      "not_found",
    );
    await expectCode(
      await call(`/api/losses?systemId=${systems.get("reference")}&from=${from}&to=${today}`, {
        token: stranger.token,
      }),
      404,
      "not_found",
    );
    const ranking = await expectStatus<LossRankingAnswer>(
      await call("/api/losses/ranking?days=7", { token: stranger.token }),
      200,
    );
    expect(ranking.sites).toEqual([]);
  });
});
