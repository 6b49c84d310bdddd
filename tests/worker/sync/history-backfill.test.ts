import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import { localDayOf } from "../../../worker/domain/energy/local-day";
import { createDb } from "../../../worker/lib/db";
import { localBudget } from "../../../worker/providers/budget";
import { solisAdapter } from "../../../worker/providers/solis";
import {
  backfillConnection,
  backfillUnit,
  type HistoryUnit,
  planHistory,
} from "../../../worker/sync/history-backfill";
import { connectProvider, deleteStoredPoints, storedPoints, storeSql } from "../fleet-helpers";
import { call, expectStatus, registerOwner, type TestUser } from "../helpers";

const solis = sandboxAccounts.solis[0];

/**
 * Deps of a backfill against an in-test sandbox whose per-second limits run on a clock the
 * injected sleep moves: the budget's spacing is honoured without waiting in real time.
 */
function backfillDeps() {
  let fakeClock = 0;
  const sandbox = createSandbox({ clock: () => fakeClock });
  return {
    db: createDb(env.DB),
    env,
    now: () => Date.now(),
    fetch: (request: Request) => Promise.resolve(sandbox.fetch(request)),
    sleep: async (ms: number) => {
      fakeClock += ms;
    },
    budget: localBudget(solisAdapter.callPlan(solis)),
  };
}

async function connectionOf(orgId: string): Promise<string> {
  const row = await env.DB.prepare(
    "SELECT id FROM provider_connections WHERE org_id = ? AND provider = 'solis'",
  )
    .bind(orgId)
    .first<{ id: string }>();
  if (!row) throw new Error("no connection");
  return row.id;
}

/** Everything a backfill writes in the store: readings, both rollups and the fetched days. */
async function storedHistory(orgId: string) {
  const [rollups] = await storeSql<{ hourly: number; daily: number; fetched: number }>(
    orgId,
    `SELECT (SELECT count(*) FROM system_hourly) AS hourly, (SELECT count(*) FROM system_daily) AS daily,
       (SELECT count(*) FROM history_days) AS fetched`,
  );
  const counts = { readings: (await storedPoints(orgId)).length, ...rollups };
  const hourly = await storeSql(
    orgId,
    "SELECT sys, hour, avg_power_w, samples FROM system_hourly ORDER BY sys, hour",
  );
  const daily = await storeSql(
    orgId,
    "SELECT sys, date, energy_wh, peak_power_w FROM system_daily ORDER BY sys, date",
  );
  return { counts, hourly, daily };
}

async function connectedOwner(): Promise<{ owner: TestUser; connectionId: string }> {
  const owner = await registerOwner();
  await connectProvider(owner, "solis");
  return { owner, connectionId: await connectionOf(owner.orgId) };
}

const sysOf = async (orgId: string, systemId: string) =>
  (await storeSql<{ sys: number }>(orgId, "SELECT sys FROM systems WHERE system_id = ?", systemId))[0]?.sys ??
  0;

/** A backfill reads and stores ~25,000 points through the real runtime. */
const SLOW = 60_000;
/** The idempotence and gap tests need only a week of history. */
const WEEK = { days: 7 };

describe("history backfill", () => {
  it(
    "fills 30 past days of a new connection from the vendor's day curves, and the 30-day charts show them",
    async () => {
      const { owner, connectionId } = await connectedOwner();
      const deps = backfillDeps();
      const plan = await planHistory(deps, connectionId);
      const systems = new Set(plan.map((unit) => unit.systemId));
      expect(systems.size).toBe(3);
      // Each plant: its last 30 days, and today when daylight has passed without points.
      for (const systemId of systems) {
        const days = plan.filter((unit) => unit.systemId === systemId).length;
        expect(days).toBeGreaterThanOrEqual(30);
        expect(days).toBeLessThanOrEqual(31);
      }

      const seen: number[] = [];
      const progress = await backfillConnection(deps, connectionId, {
        onProgress: (p) => seen.push(p.daysDone),
      });
      expect(progress.daysTotal).toBe(plan.length);
      expect(progress.daysDone).toBe(plan.length);
      expect(seen).toEqual(plan.map((_, i) => i + 1));
      // SolisCloud's station day curve: one call per plant and day (and a retry of one the
      // vendor's per-second limit refused).
      expect(progress.providerCalls).toBeGreaterThanOrEqual(plan.length);
      expect(progress.providerCalls).toBeLessThanOrEqual(plan.length + 3);
      // 5-minute points: 288 a day (23- and 25-hour days aside) for 30 days.
      expect(progress.pointsStored).toBeGreaterThan(3 * 30 * 280);

      const systemId = plan[0]?.systemId ?? "";
      const [record] = await expectStatus<AnalyticsRecord[]>(
        await call(`/api/analytics?system=${systemId}&range=30d`, { token: owner.token }),
        200,
      );
      const series = record?.series;
      // The plant's own today: from local midnight until daylight has passed, the plan's last
      // day is yesterday, which is still a past day of the range.
      const today = localDayOf(Date.now(), record?.timezone ?? "UTC").date;
      const pastEnergy = (series?.energy ?? []).filter((day) => day.date < today);
      expect(pastEnergy.length).toBeGreaterThanOrEqual(29);
      expect(pastEnergy.every((day) => (day.energyWh ?? 0) > 0)).toBe(true);
      const firstDay = plan.find((u) => u.systemId === systemId)?.date ?? "";
      const pastPower = (series?.power ?? []).filter(
        (p) => p.powerW !== null && p.powerW > 0 && p.time < `${today}T00:00:00`,
      );
      // Hourly means with power on every past day of the range, not only since the connection.
      // The range starts 30 days ago at this hour: run in the evening, its first day holds no
      // daylight inside the range, so power starts on that day or the next.
      const daysWithPower = new Set(pastPower.map((p) => p.time.slice(0, 10)));
      expect(daysWithPower.size).toBeGreaterThanOrEqual(28);
      const dayAfterFirst = new Date(Date.parse(`${firstDay}T12:00:00Z`) + 86_400_000)
        .toISOString()
        .slice(0, 10);
      expect([firstDay, dayAfterFirst]).toContain([...daysWithPower].sort()[0]);
    },
    SLOW,
  );

  it(
    "changes nothing when the same history is stored again",
    async () => {
      const { owner, connectionId } = await connectedOwner();
      const deps = backfillDeps();
      await backfillConnection(deps, connectionId, WEEK);
      const before = await storedHistory(owner.orgId);
      expect((before.counts as { fetched: number }).fetched).toBeGreaterThanOrEqual(3 * 7);

      // A second plan finds nothing left to fetch...
      const again = await backfillConnection(deps, connectionId, WEEK);
      expect(again.daysTotal).toBe(0);
      // ...and a unit run again on a day already stored writes no row.
      const plan = await planHistory(deps, connectionId, WEEK);
      expect(plan).toEqual([]);
      const systemId = (
        await storeSql<{ system_id: string }>(owner.orgId, "SELECT system_id FROM systems LIMIT 1")
      )[0]?.system_id as string;
      const [unitSystem] = await storeSql<{ provider_system_id: string; timezone: string }>(
        owner.orgId,
        "SELECT provider_system_id, timezone FROM systems WHERE system_id = ?",
        systemId,
      );
      const date = (
        await storeSql<{ date: string }>(
          owner.orgId,
          "SELECT date FROM history_days WHERE sys = ? ORDER BY date LIMIT 1 OFFSET 3",
          await sysOf(owner.orgId, systemId),
        )
      )[0]?.date as string;
      const unit: HistoryUnit = {
        systemId,
        providerSystemId: unitSystem?.provider_system_id ?? "",
        date,
        timezone: unitSystem?.timezone ?? "UTC",
      };
      const repeated = await backfillUnit(deps, connectionId, unit);
      expect(repeated.points).toBeGreaterThan(270);
      expect(repeated).toMatchObject({ pointsStored: 0, hoursRolledUp: 0, daysRolledUp: 0, rowsWritten: 0 });
      expect(await storedHistory(owner.orgId)).toEqual(before);
    },
    SLOW,
  );

  it(
    "finds a gap in the middle and fills it, rolling up only the hours and day that changed",
    async () => {
      const { owner, connectionId } = await connectedOwner();
      const deps = backfillDeps();
      await backfillConnection(deps, connectionId, WEEK);
      const full = await storedHistory(owner.orgId);

      // An outage: three hours of one plant's points, four days back, never reached the store.
      const systemId = (
        await storeSql<{ system_id: string }>(owner.orgId, "SELECT system_id FROM systems LIMIT 1")
      )[0]?.system_id as string;
      const sys = await sysOf(owner.orgId, systemId);
      const days = await storeSql<{ date: string }>(
        owner.orgId,
        "SELECT date FROM history_days WHERE sys = ? ORDER BY date",
        sys,
      );
      const gapDate = days[days.length - 4]?.date as string;
      const [zone] = await storeSql<{ timezone: string }>(
        owner.orgId,
        "SELECT timezone FROM systems WHERE sys = ?",
        sys,
      );
      // 10:00-13:00 plant-local: daylight anywhere, whatever the season.
      const gapStart = Math.floor(
        (await import("luxon")).DateTime.fromISO(`${gapDate}T10:00:00`, { zone: zone?.timezone }).toMillis() /
          1000,
      );
      const gapEnd = gapStart + 3 * 3600;
      await deleteStoredPoints(owner.orgId, sys, gapStart, gapEnd);
      await storeSql(owner.orgId, "DELETE FROM history_days WHERE sys = ? AND date = ?", sys, gapDate);
      // Sentinels: rollups outside the gap that a recompute of anything wider would overwrite.
      const outsideHour = Math.floor(gapStart / 3600) - 30;
      const otherDate = days[days.length - 6]?.date as string;
      await storeSql(
        owner.orgId,
        "UPDATE system_hourly SET avg_power_w = -7 WHERE sys = ? AND hour = ?",
        sys,
        outsideHour,
      );
      await storeSql(
        owner.orgId,
        "UPDATE system_daily SET peak_power_w = -7 WHERE sys = ? AND date = ?",
        sys,
        otherDate,
      );
      // And the gap's own rollups, spoiled, to prove they are recomputed.
      await storeSql(
        owner.orgId,
        "UPDATE system_hourly SET avg_power_w = -1 WHERE sys = ? AND hour >= ? AND hour < ?",
        sys,
        gapStart / 3600,
        gapEnd / 3600,
      );

      const plan = await planHistory(deps, connectionId, WEEK);
      expect(plan.map((unit) => [unit.systemId, unit.date])).toEqual([[systemId, gapDate]]);
      const progress = await backfillConnection(deps, connectionId, WEEK);
      expect(progress).toMatchObject({ daysDone: 1, daysTotal: 1, pointsStored: 36 });

      const after = await storedHistory(owner.orgId);
      expect(after.counts).toEqual(full.counts);
      const sentinelHour = after.hourly.find((row) => row.sys === sys && row.hour === outsideHour);
      expect(sentinelHour?.avg_power_w).toBe(-7);
      const sentinelDay = after.daily.find((row) => row.sys === sys && row.date === otherDate);
      expect(sentinelDay?.peak_power_w).toBe(-7);
      // Everything else is as the full backfill left it: the gap's hours were recomputed.
      const restore = (rows: typeof after.hourly) =>
        rows.filter((row) => !(row.sys === sys && row.hour === outsideHour));
      expect(restore(after.hourly)).toEqual(restore(full.hourly));
    },
    SLOW,
  );

  it(
    "rolls up again only what a store of history changed",
    async () => {
      const { owner, connectionId } = await connectedOwner();
      const deps = backfillDeps();
      const [unit] = await planHistory(deps, connectionId);
      if (!unit) throw new Error("nothing planned");
      const first = await backfillUnit(deps, connectionId, unit);
      // A whole day: its 23-25 UTC hours (more when the local day straddles them) and the day.
      expect(first.hoursRolledUp).toBeGreaterThanOrEqual(23);
      expect(first.hoursRolledUp).toBeLessThanOrEqual(26);
      expect(first.daysRolledUp).toBe(1);
      const sys = await sysOf(owner.orgId, unit.systemId);
      // One point taken out: the next store rolls up its one hour and its day, nothing else.
      const one = (await storedPoints(owner.orgId)).filter((p) => p.sys === sys)[150];
      await deleteStoredPoints(owner.orgId, sys, one?.t ?? 0, (one?.t ?? 0) + 1);
      const second = await backfillUnit(deps, connectionId, unit);
      expect(second).toMatchObject({ pointsStored: 1, hoursRolledUp: 1, daysRolledUp: 1 });
    },
    SLOW,
  );
});
