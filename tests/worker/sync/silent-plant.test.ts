import { env } from "cloudflare:workers";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import { solisPlants } from "../../../sandbox/solis";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import type { DashboardSummary, SystemsPage } from "../../../schema/api/dashboard";
import { createDb } from "../../../worker/lib/db";
import { localBudget } from "../../../worker/providers/budget";
import { solisAdapter } from "../../../worker/providers/solis";
import { backfillUnit } from "../../../worker/sync/history-backfill";
import { syncConnection } from "../../../worker/sync/sync-connection";
import type { SyncDeps } from "../../../worker/sync/types";
import { call, expectStatus, registerOwner } from "../helpers";
import { storeConnection } from "./connection-fixtures";

const fleet = sandboxAccounts.solis[2];
const silent = solisPlants(fleet).find((plant) => plant.silentSinceYesterday);

/**
 * The fleet account's plant whose logger went quiet yesterday at 14:00 (Brisbane): the vendor
 * keeps listing it offline with that time. Its state says since when, and once history has
 * come its 24-hour series holds the hours it has data.
 */
describe("a plant the vendor reports offline since yesterday", { timeout: 240_000 }, () => {
  it("shows since when it is silent and its series for the hours it has data", async () => {
    if (!silent) throw new Error("the fleet account has no silent plant");
    expect(silent.timezone).toBe("Australia/Brisbane");
    const owner = await registerOwner();
    const connectionId = await storeConnection(owner.orgId, "solis", {
      keyId: fleet.keyId,
      keySecret: fleet.keySecret,
    });
    // The emulator's per-second limits see a second pass between calls: the test never waits.
    let limitClockMs = Date.now();
    const sandbox = createSandbox({ clock: () => (limitClockMs += 1000) });
    const deps: SyncDeps = {
      db: createDb(env.DB),
      env,
      now: () => Date.now(),
      fetch: (request: Request) => Promise.resolve(sandbox.fetch(request)),
      sleep: async () => {},
      budget: localBudget(solisAdapter.callPlan(fleet)),
    };
    expect((await syncConnection(deps, connectionId, "save")).status).toBe("success");

    // Its state: offline, its data time the moment it went quiet, stale in the fleet's terms
    // whenever the sun is up there.
    const page = await expectStatus<SystemsPage>(
      await call(`/api/dashboard/systems?q=${encodeURIComponent(silent.name)}`, { token: owner.token }),
      200,
    );
    const row = page.items.find((item) => item.providerId === silent.id);
    if (!row) throw new Error(`${silent.name} is not listed`);
    // Yesterday 14:00 at the plant, as the vendor's list said (read from the answer, so a run
    // across the plant's midnight agrees with the emulator's own clock).
    const silentSince = Date.parse(row.dataTime ?? "");
    expect(DateTime.fromMillis(silentSince, { zone: silent.timezone }).toFormat("HH:mm")).toBe("14:00");
    expect(Date.now() - silentSince).toBeGreaterThan(9.9 * 3_600_000);
    expect(Date.now() - silentSince).toBeLessThan(34.1 * 3_600_000);
    expect(["offline", "stale"]).toContain(row.status);
    // Its last value is not output now: the fleet's power counts fresh values only, day or night.
    const summary = await expectStatus<DashboardSummary>(
      await call("/api/dashboard/summary", { token: owner.token }),
      200,
    );
    let freshPowerW = 0;
    for (let p = 1; p <= Math.ceil(fleet.plants / 200); p++) {
      const { items } = await expectStatus<SystemsPage>(
        await call(`/api/dashboard/systems?pageSize=200&page=${p}`, { token: owner.token }),
        200,
      );
      for (const item of items) {
        if (item.dataTime && Date.parse(summary.generatedAt) - Date.parse(item.dataTime) <= 30 * 60_000)
          freshPowerW += item.currentPowerW;
      }
    }
    expect(summary.totals.powerW).toBeCloseTo(freshPowerW, 0);

    // History brings its last days (the run works newest day first across the fleet).
    for (let back = 0; back <= 2; back++) {
      const date = DateTime.now().setZone(silent.timezone).minus({ days: back }).toISODate() ?? "";
      await backfillUnit(deps, connectionId, {
        systemId: row.systemId,
        providerSystemId: silent.id,
        date,
        timezone: silent.timezone,
      });
    }

    const [record] = await expectStatus<AnalyticsRecord[]>(
      await call(`/api/analytics?system=${row.systemId}&range=24h`, { token: owner.token }),
      200,
    );
    const points = (record?.series?.power ?? []).map((p) => Date.parse(p.time));
    // The last 24 hours while it went quiet less than a day ago (before 14:00 in Brisbane), else
    // the 24 hours up to its last data: every 5-minute point up to the moment it went quiet,
    // none after.
    const now = Date.now();
    const until = now - silentSince > 86_400_000 ? silentSince : now;
    const from = until - 86_400_000;
    expect(Math.max(...points)).toBe(silentSince);
    expect(Math.min(...points)).toBeGreaterThanOrEqual(from - 300_000);
    expect(points.length).toBeGreaterThanOrEqual(Math.floor((silentSince - from) / 300_000) - 1);
    expect(record?.lastUpdated).toBe(new Date(silentSince).toISOString());
  });
});
