import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { daysToBackfill } from "../../../worker/domain/history/gaps";
import { storeOf, storeSql } from "../fleet-helpers";
import { insertOrg, insertSystem, point, storePoints } from "./fleet-fixtures";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A day of 5-minute points in a zone, as a vendor's history gives it. */
function dayPoints(date: string, zone: string) {
  const start = DateTime.fromISO(date, { zone }).toMillis();
  const end = DateTime.fromISO(date, { zone }).plus({ days: 1 }).toMillis();
  const points = [];
  for (let t = start, i = 0; t < end; t += 300_000, i++)
    points.push({ time: t, powerW: 1000 + i, energyTodayWh: i * 10 });
  return points;
}

describe("rollup windows", () => {
  it("rolls nothing up again when an offline plant's stale point comes back in every sync", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId, { inverters: 1 });
    const weeksAgo = Date.now() - 21 * DAY;
    const first = await storePoints(orgId, [point(system, weeksAgo, 500, 4000)]);
    expect(first).toMatchObject({ hoursRolledUp: 1, daysRolledUp: 1 });
    // A sentinel in the rollup of the stale point's own hour: a recompute would overwrite it.
    await storeSql(orgId, "UPDATE system_hourly SET avg_power_w = -7");
    await storeSql(orgId, "UPDATE system_daily SET peak_power_w = -7");
    for (let sync = 0; sync < 3; sync++) {
      const again = await storePoints(orgId, [point(system, weeksAgo, 500, 4000)]);
      expect(again).toMatchObject({ hoursRolledUp: 0, daysRolledUp: 0 });
    }
    expect(await storeSql(orgId, "SELECT avg_power_w FROM system_hourly")).toEqual([{ avg_power_w: -7 }]);
    expect(await storeSql(orgId, "SELECT peak_power_w FROM system_daily")).toEqual([{ peak_power_w: -7 }]);
    // A fresh point beside it rolls nothing up: its hour is open (read from its points until it
    // closes), and the stale point's hour was rolled up when it was stored.
    const fresh = await storePoints(orgId, [
      point(system, weeksAgo, 500, 4000),
      point(system, Date.now(), 900, 100),
    ]);
    expect(fresh).toMatchObject({ hoursRolledUp: 0, daysRolledUp: 0 });
    expect(await storeSql(orgId, "SELECT avg_power_w FROM system_hourly ORDER BY hour")).toEqual([
      { avg_power_w: -7 },
    ]);
  });

  it("stores a history day of a DST change as 25 and 23 hourly rollups in the plant's zone, once", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId, { timezone: "Europe/Amsterdam" });
    const store = storeOf(orgId);
    for (const [date, hours] of [
      ["2026-10-25", 25],
      ["2026-03-29", 23],
    ] as const) {
      const points = dayPoints(date, "Europe/Amsterdam");
      const day = {
        systemId: system.id,
        date,
        points,
        dailyEnergyWh: 99_999,
        fetchedAt: Date.now(),
        dayOver: true,
      };
      const stored = await store.storeHistoryDay(orgId, day);
      expect(stored).toMatchObject({
        points: hours * 12,
        pointsStored: hours * 12,
        hoursRolledUp: hours,
        daysRolledUp: 1,
      });
      const again = await store.storeHistoryDay(orgId, day);
      expect(again).toMatchObject({ pointsStored: 0, hoursRolledUp: 0, daysRolledUp: 0, rowsWritten: 0 });
      const start = DateTime.fromISO(date, { zone: "Europe/Amsterdam" }).toMillis() / HOUR;
      const [rollups] = await storeSql(
        orgId,
        "SELECT count(*) AS hours, sum(samples) AS samples FROM system_hourly WHERE hour >= ? AND hour < ?",
        start,
        start + hours,
      );
      expect(rollups).toEqual({ hours, samples: hours * 12 });
      // The vendor's day total wins over the highest counter of the points (2,870 or 2,990 Wh).
      expect(await storeSql(orgId, "SELECT energy_wh FROM system_daily WHERE date = ?", date)).toEqual([
        { energy_wh: 99_999 },
      ]);
    }
    expect(await storeSql(orgId, "SELECT date FROM history_days ORDER BY date")).toEqual([
      { date: "2026-03-29" },
      { date: "2026-10-25" },
    ]);
  });

  it("does not count a day that is not over as fetched", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId, { timezone: "Europe/Amsterdam" });
    const today = DateTime.now().setZone("Europe/Amsterdam").toISODate() ?? "";
    await storeOf(orgId).storeHistoryDay(orgId, {
      systemId: system.id,
      date: today,
      points: [],
      dailyEnergyWh: null,
      fetchedAt: Date.now(),
      dayOver: false,
    });
    expect(await storeSql(orgId, "SELECT date FROM history_days")).toEqual([]);
  });
});

describe("gap detection", () => {
  const zone = "Europe/Amsterdam";
  const amsterdam = { timezone: zone, latitude: 52.37, longitude: 4.9 };
  const now = DateTime.fromISO("2026-06-20T15:02:00", { zone }).toMillis();
  const everyFiveMinutes = (fromMs: number, toMs: number) => {
    const times = [];
    for (let t = fromMs; t < toMs; t += 300_000) times.push(t);
    return times;
  };
  const start = DateTime.fromISO("2026-05-20T00:00:00", { zone }).toMillis();

  it("asks for every day of a new connection, oldest first, today included", () => {
    const due = daysToBackfill({ ...amsterdam, pointTimes: [], fetchedDays: new Set() }, { now, days: 31 });
    expect(due).toHaveLength(31);
    expect(due[0]).toBe("2026-05-21");
    expect(due.at(-1)).toBe("2026-06-20");
  });

  it("asks for nothing when every daylight slot holds a point, even with the nights empty", () => {
    const daylightOnly = everyFiveMinutes(start, now).filter((t) => {
      const hour = DateTime.fromMillis(t, { zone }).hour;
      return hour >= 5 && hour < 23;
    });
    expect(
      daysToBackfill({ ...amsterdam, pointTimes: daylightOnly, fetchedDays: new Set() }, { now, days: 31 }),
    ).toEqual([]);
  });

  it("finds an outage in the middle, and the afternoon of today after a backoff", () => {
    const outageFrom = DateTime.fromISO("2026-06-10T11:00:00", { zone }).toMillis();
    const backoffFrom = DateTime.fromISO("2026-06-20T13:30:00", { zone }).toMillis();
    const times = everyFiveMinutes(start, now).filter(
      (t) => !(t >= outageFrom && t < outageFrom + 2 * HOUR) && t < backoffFrom,
    );
    expect(
      daysToBackfill({ ...amsterdam, pointTimes: times, fetchedDays: new Set() }, { now, days: 31 }),
    ).toEqual(["2026-06-10", "2026-06-20"]);
    // A day read from history already is not asked for again; today is, until it is over.
    const fetched = new Set(["2026-06-10", "2026-06-20"]);
    expect(
      daysToBackfill({ ...amsterdam, pointTimes: times, fetchedDays: fetched }, { now, days: 31 }),
    ).toEqual(["2026-06-20"]);
  });

  it("takes the connection's cadence as the slot: a 30-minute cadence is no gap", () => {
    const halfHourly = [];
    for (let t = start; t < now; t += 30 * 60_000) halfHourly.push(t);
    const plant = { ...amsterdam, pointTimes: halfHourly, fetchedDays: new Set<string>() };
    expect(daysToBackfill(plant, { now, days: 31, slotMs: 30 * 60_000 })).toEqual([]);
    expect(daysToBackfill(plant, { now, days: 31 }).length).toBe(31);
  });
});
