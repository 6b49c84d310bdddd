import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type FleetSeries, fleetSeriesSchema } from "../../../schema/api/fleet-series";
import { DEFAULT_CALIBRATION } from "../../../worker/domain/solar/pv-model";
import { referenceWhPerKw } from "../../../worker/domain/solar/reference-yield";
import { createDb } from "../../../worker/lib/db";
import { loadCurrentUser } from "../../../worker/services/auth";
import { fleetSeries } from "../../../worker/services/fleet-series";
import { insertSystem, type SystemSeed } from "../fleet/fleet-fixtures";
import {
  seedDailyRollups,
  seedHourlyRollups,
  seedLossAccounts,
  setSystemLive,
  systemStoreSql,
} from "../fleet-helpers";
import {
  call,
  expectError,
  expectRejectsBadTokens,
  expectStatus,
  registerOwner,
  type TestUser,
} from "../helpers";

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);

/** A monitoring system written straight into D1 (its live values into its fleet store), without a site (its own zone and coordinates count). */
async function seedSystem(
  orgId: string,
  seed: SystemSeed & { energyTodayWh?: number | null; dataTime?: number | null } = {},
): Promise<string> {
  const { id } = await insertSystem(orgId, seed);
  if (seed.energyTodayWh != null || seed.dataTime != null) {
    await setSystemLive(id, {
      state: "online",
      powerW: null,
      energyTodayWh: seed.energyTodayWh ?? null,
      dataTime: seed.dataTime ?? null,
    });
  }
  return id;
}

/** Hourly rollup rows: [UTC hour start, mean power W]. */
const seedHours = (systemId: string, hours: [string, number][]) =>
  seedHourlyRollups(
    systemId,
    hours.map(([hour, powerW]) => [at(hour), powerW]),
  );

/** Daily rollup rows: [local date, energy Wh]. */
const seedDays = seedDailyRollups;

async function seedIrradiance(locationKey: string, hours: [string, number][]) {
  await env.DB.batch(
    hours.map(([hour, ghiWm2]) =>
      env.DB.prepare(
        "INSERT OR REPLACE INTO irradiance_hourly (location_key, hour_start, ghi_wm2) VALUES (?, ?, ?)",
      ).bind(locationKey, at(hour), ghiWm2),
    ),
  );
}

/** The service as the route calls it, with the clock at `nowIso`. */
async function seriesAt(owner: TestUser, nowIso: string, tz = "UTC"): Promise<FleetSeries> {
  const base = { db: createDb(env.DB), env, now: at(nowIso), ip: null, origin: "http://sunfleet.test" };
  const user = await loadCurrentUser(base, owner.id);
  if (!user) throw new Error(`No user ${owner.id}`);
  return fleetSeriesSchema.parse(await fleetSeries({ ...base, user }, { tz }));
}

describe("GET /api/dashboard/series", () => {
  it("sums each provider's hourly mean power since the viewer's midnight, without meteronline or other organisations", async () => {
    const owner = await registerOwner("Series Co");
    const other = await registerOwner("Other Co");
    const solisA = await seedSystem(owner.orgId, { provider: "solis" });
    const solisB = await seedSystem(owner.orgId, { provider: "solis", timezone: "Asia/Tokyo" });
    const fronius = await seedSystem(owner.orgId, { provider: "fronius" });
    const meteronline = await seedSystem(owner.orgId, { provider: "meteronline" });
    const foreign = await seedSystem(other.orgId, { provider: "solis" });
    await seedHours(solisA, [
      // 23:00 in Amsterdam: yesterday there.
      ["2026-06-09T21:00:00Z", 999],
      // Amsterdam's midnight; still yesterday in UTC.
      ["2026-06-09T22:00:00Z", 100],
      ["2026-06-10T10:00:00Z", 1000],
      // The current hour, so far.
      ["2026-06-10T14:00:00Z", 200],
    ]);
    await seedHours(solisB, [["2026-06-10T10:00:00Z", 500]]);
    await seedHours(fronius, [["2026-06-10T10:00:00Z", 700]]);
    await seedHours(meteronline, [
      ["2026-06-09T22:00:00Z", 5000],
      ["2026-06-10T10:00:00Z", 9000],
    ]);
    await seedHours(foreign, [
      ["2026-06-10T10:00:00Z", 4000],
      ["2026-06-10T11:00:00Z", 4000],
    ]);

    const amsterdam = await seriesAt(owner, "2026-06-10T14:20:00Z", "Europe/Amsterdam");
    expect(amsterdam.timezone).toBe("Europe/Amsterdam");
    expect(amsterdam.day).toEqual({ start: "2026-06-09T22:00:00.000Z", end: "2026-06-10T22:00:00.000Z" });
    expect(amsterdam.generation).toEqual([
      { time: "2026-06-09T22:00:00.000Z", values: { solis: 100 } },
      { time: "2026-06-10T10:00:00.000Z", values: { solis: 1500, fronius: 700 } },
      { time: "2026-06-10T14:00:00.000Z", values: { solis: 200 } },
    ]);
    const utc = await seriesAt(owner, "2026-06-10T14:20:00Z");
    expect(utc.generation.map((point) => point.time)).toEqual([
      "2026-06-10T10:00:00.000Z",
      "2026-06-10T14:00:00.000Z",
    ]);
    expect((await seriesAt(other, "2026-06-10T14:20:00Z")).generation).toEqual([
      { time: "2026-06-10T10:00:00.000Z", values: { solis: 4000 } },
      { time: "2026-06-10T11:00:00.000Z", values: { solis: 4000 } },
    ]);
  });

  it("answers through the API in the documented shape, scoped to the caller's organisation", async () => {
    const owner = await registerOwner("Api Co");
    const other = await registerOwner("Api Other Co");
    // The current UTC hour is always inside today in UTC, whatever the time of the run.
    const hour = new Date(Math.floor(Date.now() / HOUR) * HOUR).toISOString();
    await seedHours(await seedSystem(owner.orgId, { provider: "solis" }), [[hour, 1200]]);
    await seedHours(await seedSystem(owner.orgId, { provider: "meteronline" }), [[hour, 5000]]);
    await seedHours(await seedSystem(other.orgId, { provider: "fronius" }), [[hour, 800]]);

    const mine = fleetSeriesSchema.parse(
      await expectStatus(await call("/api/dashboard/series", { token: owner.token }), 200),
    );
    expect(mine.timezone).toBe("UTC");
    expect(mine.generation).toEqual([{ time: hour, values: { solis: 1200 } }]);
    const theirs = fleetSeriesSchema.parse(
      await expectStatus(await call("/api/dashboard/series?tz=UTC", { token: other.token }), 200),
    );
    expect(theirs.generation).toEqual([{ time: hour, values: { fronius: 800 } }]);
    const kolkata = fleetSeriesSchema.parse(
      await expectStatus(await call("/api/dashboard/series?tz=Asia/Kolkata", { token: owner.token }), 200),
    );
    expect(kolkata.timezone).toBe("Asia/Kolkata");
  });

  it("compares today with yesterday up to the same wall-clock time in each system's own zone, prorating partial hours", async () => {
    const owner = await registerOwner("Same Time Co");
    // 14:20 UTC is 10:20 in New York (UTC-4): its today began at 04:00 UTC, its yesterday at 04:00 UTC on the 9th.
    // Nine such systems: with the one connected today, 90 % of today's reporting systems had a yesterday.
    for (let i = 0; i < 9; i++) await seedNewYorkDays(owner);
    // Connected today: without a yesterday it would count as growth, so it is left out of both sides.
    await seedHours(await seedSystem(owner.orgId), [["2026-06-10T12:00:00Z", 5000]]);
    const meteronline = await seedSystem(owner.orgId, {
      provider: "meteronline",
      timezone: "America/New_York",
    });
    await seedHours(meteronline, [
      ["2026-06-09T12:00:00Z", 50_000],
      ["2026-06-10T12:00:00Z", 90_000],
    ]);

    const expected = { energyWh: 9 * 4000, yesterdaySameTimeWh: 9 * 3000, changePct: 33.3, systemCount: 9 };
    expect((await seriesAt(owner, "2026-06-10T14:20:00Z")).today).toEqual(expected);
    // The viewer's zone moves the chart's day, not the systems' days.
    expect((await seriesAt(owner, "2026-06-10T14:20:00Z", "Asia/Tokyo")).today).toEqual(expected);
  });

  it("gives no change while fewer than 90 % of the systems reporting today had a yesterday (a history arriving)", async () => {
    const owner = await registerOwner("Arriving Co");
    await seedNewYorkDays(owner);
    // Reported yesterday, silent today: compared (a fall is a change), not among today's reporting.
    await seedHours(await seedSystem(owner.orgId, { timezone: "America/New_York" }), [
      ["2026-06-09T13:00:00Z", 2000],
    ]);
    await seedHours(await seedSystem(owner.orgId), [["2026-06-10T12:00:00Z", 5000]]);
    expect((await seriesAt(owner, "2026-06-10T14:20:00Z")).today).toEqual({
      energyWh: 4000,
      yesterdaySameTimeWh: 3000 + 2000,
      changePct: null,
      systemCount: 2,
    });
  });

  /** A New York system's hours yesterday and today: 3000 Wh yesterday by 10:20 local, 4000 Wh today. */
  async function seedNewYorkDays(owner: TestUser) {
    const newYork = await seedSystem(owner.orgId, { timezone: "America/New_York" });
    await seedHours(newYork, [
      // 23:00 the day before yesterday in New York: not yesterday there (it would be in UTC).
      ["2026-06-09T03:00:00Z", 5000],
      ["2026-06-09T12:00:00Z", 1000],
      ["2026-06-09T13:00:00Z", 1000],
      // 20 of its 60 minutes are before the same time yesterday: 1000 Wh.
      ["2026-06-09T14:00:00Z", 3000],
      // After the same time yesterday.
      ["2026-06-09T15:00:00Z", 6000],
      ["2026-06-10T12:00:00Z", 1000],
      ["2026-06-10T13:00:00Z", 2000],
      // The current hour, 20 minutes in: 1000 Wh so far.
      ["2026-06-10T14:00:00Z", 3000],
    ]);
  }

  it("keeps the wall clock across a DST change and answers no change when yesterday produced nothing", async () => {
    const owner = await registerOwner("Dst Co");
    // Amsterdam moved to summer time at 01:00 UTC on 29 March: 22:00 local on the 29th is 20:00 UTC,
    // 22:00 local on the 28th was 21:00 UTC, 25 hours earlier.
    const amsterdam = await seedSystem(owner.orgId, { timezone: "Europe/Amsterdam" });
    await seedHours(amsterdam, [
      ["2026-03-28T10:00:00Z", 2000],
      ["2026-03-28T20:00:00Z", 1000],
      ["2026-03-29T10:00:00Z", 3000],
    ]);
    expect((await seriesAt(owner, "2026-03-29T20:00:00Z")).today).toEqual({
      energyWh: 3000,
      yesterdaySameTimeWh: 3000,
      changePct: 0,
      systemCount: 1,
    });

    const dark = await registerOwner("Dark Co");
    const idle = await seedSystem(dark.orgId);
    await seedHours(idle, [
      ["2026-06-09T10:00:00Z", 0],
      ["2026-06-10T10:00:00Z", 1500],
    ]);
    expect((await seriesAt(dark, "2026-06-10T14:20:00Z")).today).toEqual({
      energyWh: 1500,
      yesterdaySameTimeWh: 0,
      changePct: null,
      systemCount: 1,
    });
  });

  it("compares today's PR (the dashboard's) with the median of the previous 7 local days' loss accounts, leaving out a day without one", async () => {
    const owner = await registerOwner("Pr Co");
    const location = { latitude: -33.91, longitude: 18.42, capacityW: 10_000 };
    const key = "-33.91,18.42";
    // 1000 W/m² for the hour from noon UTC on 10 kW: the one model's expectation of that day.
    const expectedOf = (hours: [string, number][]) =>
      Math.round(
        10 *
          DEFAULT_CALIBRATION *
          referenceWhPerKw(
            location,
            hours.map(([hour, ghiWm2]) => ({
              hourStart: at(hour),
              ghiWm2,
              directWm2: null,
              diffuseWm2: null,
              airC: null,
              windMs: null,
              precipitationMm: null,
            })),
          ),
      );
    const todayExpectedWh = expectedOf([
      ["2026-06-10T08:00:00Z", 600],
      ["2026-06-10T11:00:00Z", 400],
    ]);
    const now = "2026-06-10T12:00:00Z";
    const reporting = await seedSystem(owner.orgId, {
      ...location,
      energyTodayWh: 0.85 * todayExpectedWh,
      dataTime: at("2026-06-10T11:55:00Z"),
    });
    // Its counter is yesterday's, so it generated nothing today; it has no stored days.
    await seedSystem(owner.orgId, {
      ...location,
      energyTodayWh: 50_000,
      dataTime: at("2026-06-09T18:00:00Z"),
    });
    // Neither has an expectation: no capacity, or meteronline.
    const noCapacity = await seedSystem(owner.orgId, { ...location, capacityW: null });
    const meteronline = await seedSystem(owner.orgId, { ...location, provider: "meteronline" });
    const prs: [string, number][] = [
      // Eight days ago: outside the baseline.
      ["2026-06-02", 0.1],
      ["2026-06-03", 0.5],
      ["2026-06-04", 0.9],
      ["2026-06-05", 0.7],
      ["2026-06-06", 0.8],
      ["2026-06-07", 0.6],
      ["2026-06-08", 0.95],
      ["2026-06-09", 0.75],
    ];
    for (const [date, pr] of prs) {
      await seedLossAccounts(owner.orgId, reporting, [date], {
        expected: 10_000,
        underperformance: Math.round((1 - pr) * 10_000),
      });
    }
    // Meteronline's accounts stay out of the fleet's: counted, the 5th would read 0.85 and the median 0.8.
    await seedLossAccounts(owner.orgId, meteronline, ["2026-06-05"], { expected: 10_000 });
    // Stored days without an account are not a PR (the accounts are what the losses screens show).
    await seedDays(noCapacity, [["2026-06-09", 99_000]]);
    await seedIrradiance(key, [
      ["2026-06-10T08:00:00Z", 600],
      ["2026-06-10T11:00:00Z", 400],
      // The hour that starts now has not been counted yet.
      ["2026-06-10T12:00:00Z", 900],
    ]);

    const series = await seriesAt(owner, now);
    // Today: 0.85 × expected actual over two systems' expectation.
    expect(series.performance).toEqual({ todayPr: 0.425, medianPr7d: 0.75, changePct: -43.3, dayCount: 7 });

    await systemStoreSql(
      reporting,
      "DELETE FROM system_losses WHERE date = '2026-06-06' AND sys = (SELECT sys FROM systems WHERE system_id = ?)",
      reporting,
    );
    const missingDay = (await seriesAt(owner, now)).performance;
    // 0.5, 0.6, 0.7, 0.75, 0.9, 0.95: the mean of the middle two.
    expect(missingDay.dayCount).toBe(6);
    expect(missingDay.medianPr7d).toBeCloseTo(0.725, 6);
    expect(missingDay.changePct).toBeCloseTo(-41.4, 6);
  });

  it("adds up a fleet read 1,000 systems a turn as if it were read at once", async () => {
    const location = { latitude: -34.55, longitude: 19.55, capacityW: 10_000 };
    await seedIrradiance("-34.55,19.55", [
      ["2026-06-09T12:00:00Z", 1000],
      ["2026-06-10T10:00:00Z", 800],
    ]);
    /** Two systems of one group, one at each end of the fleet's keys when fillers come between. */
    async function seriesOfPair(name: string, fillers: number) {
      const owner = await registerOwner(name);
      const first = (await insertSystem(owner.orgId, location)).id;
      if (fillers > 0) {
        await env.DB.prepare(
          `INSERT INTO monitoring_systems (id, org_id, provider, provider_system_id, name, capacity_w, state,
             timezone, created_at, updated_at)
           WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${fillers})
           SELECT ? || '-' || i, ?, 'solis', 'F' || i, 'Filler ' || i, 5000, 'online', 'UTC', 0, 0 FROM n`,
        )
          .bind(owner.orgId, owner.orgId)
          .run();
      }
      const last = (await insertSystem(owner.orgId, location)).id;
      for (const [systemId, share] of [
        [first, 1],
        [last, 2],
      ] as const) {
        await seedHours(systemId, [
          ["2026-06-09T10:00:00Z", 1000 * share],
          ["2026-06-10T10:00:00Z", 1500 * share],
        ]);
        await seedLossAccounts(owner.orgId, systemId, ["2026-06-09"], {
          expected: 8000 * share,
          downtime: 2000 * share,
        });
        await setSystemLive(systemId, {
          state: "online",
          powerW: null,
          energyTodayWh: 4000 * share,
          dataTime: at("2026-06-10T11:55:00Z"),
        });
      }
      const sys = await systemStoreSql(last, "SELECT sys FROM systems WHERE system_id = ?", last);
      return { series: await seriesAt(owner, "2026-06-10T12:00:00Z"), lastSys: Number(sys[0]?.sys) };
    }
    const together = await seriesOfPair("Adjacent Co", 0);
    const apart = await seriesOfPair("Apart Co", 1_000);
    // The second system is in the next range of keys.
    expect(together.lastSys).toBe(2);
    expect(apart.lastSys).toBe(1_002);
    expect(together.series.generation).toEqual([
      { time: "2026-06-10T10:00:00.000Z", values: { solis: 4500 } },
    ]);
    expect(together.series.today.systemCount).toBe(2);
    expect(together.series.performance.todayPr).not.toBeNull();
    expect(together.series.performance.dayCount).toBe(1);
    expect(apart.series.generation).toEqual(together.series.generation);
    expect(apart.series.today).toEqual(together.series.today);
    expect(apart.series.performance).toEqual(together.series.performance);
  });

  it("has no PR comparison without irradiance", async () => {
    const owner = await registerOwner("No Sun Co");
    const system = await seedSystem(owner.orgId, {
      latitude: -12.34,
      longitude: 56.78,
      energyTodayWh: 4000,
      dataTime: at("2026-06-10T11:00:00Z"),
    });
    await seedDays(system, [["2026-06-09", 20_000]]);
    expect((await seriesAt(owner, "2026-06-10T12:00:00Z")).performance).toEqual({
      todayPr: null,
      medianPr7d: null,
      changePct: null,
      dayCount: 0,
    });
  });

  it("answers 400 with details for a zone that is not an IANA name, and for unknown parameters", async () => {
    const owner = await registerOwner();
    for (const tz of ["Mars/Olympus_Mons", "+05:30", "europe/amsterdam"]) {
      const error = await expectError(
        await call(`/api/dashboard/series?tz=${encodeURIComponent(tz)}`, { token: owner.token }),
        400,
        `Unknown time zone: ${tz}`,
      );
      expect(error.details).toEqual([{ path: ["tz"], message: `Unknown time zone: ${tz}` }]);
    }
    const unknown = await expectError(
      await call("/api/dashboard/series?zone=UTC", { token: owner.token }),
      400,
      "Invalid input",
    );
    expect(unknown.details).toEqual([expect.objectContaining({ code: "unrecognized_keys" })]);
  });

  it("needs a token", async () => {
    const owner = await registerOwner();
    await expectRejectsBadTokens({ method: "GET", path: "/api/dashboard/series" }, owner);
  });
});
