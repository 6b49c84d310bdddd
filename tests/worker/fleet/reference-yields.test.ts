import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { DashboardMetric } from "../../../schema/api/metrics";
import {
  type IrradianceWindow,
  WINDOWS_PER_STATEMENT,
  weatherInWindows,
} from "../../../worker/data/irradiance";
import { DEFAULT_CALIBRATION } from "../../../worker/domain/solar/pv-model";
import { ReferenceYields } from "../../../worker/fleet/read-models/reference-yields";
import {
  expectedFromYield,
  type IrradiationByDay,
  readIrradiation,
} from "../../../worker/fleet/read-models/system-metrics";
import { createDb, type Db } from "../../../worker/lib/db";
import { storeOf } from "../fleet-helpers";
import { insertOrg, insertSystem, point, storePoints } from "./fleet-fixtures";

const HOUR = 3_600_000;
const d1 = {} as Db;

/** A reader that answers each window's start as its yield and records which windows it was asked for. */
function countingReader() {
  const asked: string[][] = [];
  const read = async (_db: Db, windows: IrradianceWindow[]): Promise<IrradiationByDay> => {
    asked.push(windows.map((w) => w.key));
    // A place named "none" has no stored hours: no yield.
    return new Map(
      windows.filter((w) => w.key !== "none").map((w) => [`${w.key}|${w.start}`, w.start / HOUR]),
    );
  };
  return { asked, read };
}

const window = (key: string, start: number, end = start + 10 * HOUR): IrradianceWindow => ({
  key,
  start,
  end,
});

describe("today's reference yields held by the fleet store", () => {
  it("asks D1 only for windows it does not hold at the irradiance counter, and everything again when the counter moves", async () => {
    const { asked, read } = countingReader();
    const yields = new ReferenceYields(read);
    const a = window("52.37,4.90", 10 * HOUR);
    const b = window("48.85,2.35", 20 * HOUR);
    const none = window("none", 30 * HOUR);
    const first = await yields.yields(d1, [a, b, none], 7);
    expect(first).toEqual(
      new Map([
        ["52.37,4.90|36000000", 10],
        ["48.85,2.35|72000000", 20],
      ]),
    );
    expect(await yields.yields(d1, [a, b, none], 7)).toEqual(first);
    // A window ending later (the next hour of today) is another window.
    const later = { ...a, end: a.end + HOUR };
    await yields.yields(d1, [later, b], 7);
    expect(asked).toEqual([["52.37,4.90", "48.85,2.35", "none"], ["52.37,4.90"]]);
    // The weather moved: every window is read again.
    await yields.yields(d1, [a, b], 8);
    expect(asked.at(-1)).toEqual(["52.37,4.90", "48.85,2.35"]);
    // A build that read an older counter is answered from D1 and changes nothing held.
    await yields.yields(d1, [a], 7);
    await yields.yields(d1, [a, b], 8);
    expect(asked.slice(3)).toEqual([["52.37,4.90"]]);
  });

  it("answers a system's days held while the counter D1 answers beside them stands, and reads D1 beside the counter otherwise", async () => {
    const { asked, read } = countingReader();
    const yields = new ReferenceYields(read);
    const days = [window("52.37,4.90", 0, 24 * HOUR), window("52.37,4.90", 24 * HOUR, 48 * HOUR)];
    // Nothing held: D1 is asked at once, before the counter has come.
    let counterCame: (version: number) => void = () => undefined;
    const counter = new Promise<number>((resolve) => {
      counterCame = resolve;
    });
    const first = yields.yieldsBeside(d1, days, counter);
    await Promise.resolve();
    expect(asked).toEqual([["52.37,4.90", "52.37,4.90"]]);
    counterCame(7);
    const expected = new Map([
      ["52.37,4.90|0", 0],
      ["52.37,4.90|86400000", 24],
    ]);
    expect(await first).toEqual(expected);
    // Held at 7: the next call for these days (a neighbour's, the next range's) asks D1 nothing.
    expect(await yields.yieldsBeside(d1, days, Promise.resolve(7))).toEqual(expected);
    expect(await yields.yields(d1, days, 7)).toEqual(expected);
    expect(asked).toHaveLength(1);
    // The weather moved: read again, and held at the new counter.
    await yields.yieldsBeside(d1, days, Promise.resolve(8));
    expect(asked).toHaveLength(2);
    await yields.yieldsBeside(d1, days, Promise.resolve(8));
    expect(asked).toHaveLength(2);
    // A read that came with an older counter is answered from D1 and keeps nothing.
    await yields.yieldsBeside(d1, [window("48.85,2.35", 0)], Promise.resolve(7));
    await yields.yieldsBeside(d1, [window("48.85,2.35", 0)], Promise.resolve(8));
    expect(asked.slice(2)).toEqual([["48.85,2.35"], ["48.85,2.35"]]);
  });

  it("answers what readIrradiation answers, and a dashboard built after the weather changed shows the new expectation", async () => {
    const orgId = await insertOrg();
    const now = Date.UTC(2026, 5, 21, 13, 20);
    const system = await insertSystem(orgId, { latitude: 40.42, longitude: -3.7, timezone: "Europe/Madrid" });
    await storePoints(orgId, [point(system, now - 60_000, 4000, 20_000)]);
    const key = "40.42,-3.70";
    const setSky = (ghi: number) =>
      env.DB.batch(
        [8, 9, 10, 11, 12, 13].map((hour) =>
          env.DB.prepare(
            `INSERT INTO irradiance_hourly (location_key, hour_start, ghi_wm2) VALUES (?, ?, ?)
             ON CONFLICT (location_key, hour_start) DO UPDATE SET ghi_wm2 = excluded.ghi_wm2`,
          ).bind(key, Date.UTC(2026, 5, 21, hour), ghi),
        ),
      );
    await setSky(600);
    const windows = [window(key, Date.UTC(2026, 5, 20, 22), Date.UTC(2026, 5, 21, 14))];
    const db = createDb(env.DB);
    expect(await new ReferenceYields().yields(db, windows, 1)).toEqual(await readIrradiation(db, windows));

    const expectedToday = async () => {
      const metrics = JSON.parse(await storeOf(orgId).metricsJson(orgId, now)) as DashboardMetric[];
      return metrics[0]?.expectedTodayWh ?? null;
    };
    const sunny = await expectedToday();
    expect(sunny).toBeGreaterThan(0);
    await setSky(200);
    const cloudy = await expectedToday();
    expect(cloudy).toBeGreaterThan(0);
    expect(cloudy).toBeLessThan((sunny as number) / 2);
  });

  it("runs today's expectation to now: the finished hours, and the elapsed share of the hour in progress", async () => {
    const orgId = await insertOrg();
    // 13:30 UTC in Lisbon (UTC+1 in June: 14:30 there): half of the hour from 13:00 has passed.
    const now = Date.UTC(2026, 6, 1, 13, 30);
    const system = await insertSystem(orgId, {
      latitude: 38.72,
      longitude: -9.14,
      timezone: "Europe/Lisbon",
    });
    await storePoints(orgId, [point(system, now - 60_000, 6000, 30_000)]);
    const key = "38.72,-9.14";
    const hours = [7, 8, 9, 10, 11, 12, 13];
    await env.DB.batch(
      hours.map((hour) =>
        env.DB.prepare(
          "INSERT INTO irradiance_hourly (location_key, hour_start, ghi_wm2) VALUES (?, ?, ?)",
        ).bind(key, Date.UTC(2026, 6, 1, hour), hour === 13 ? 900 : 500),
      ),
    );
    const db = createDb(env.DB);
    const dayStart = Date.UTC(2026, 5, 30, 23);
    const inProgress = Date.UTC(2026, 6, 1, 13);
    const yields = await readIrradiation(db, [
      window(key, dayStart, inProgress),
      window(key, inProgress, inProgress + HOUR),
    ]);
    const finished = yields.get(`${key}|${dayStart}`) ?? 0;
    const current = yields.get(`${key}|${inProgress}`) ?? 0;
    expect(finished).toBeGreaterThan(0);
    expect(current).toBeGreaterThan(0);
    const metrics = JSON.parse(await storeOf(orgId).metricsJson(orgId, now)) as DashboardMetric[];
    // 10 kW at PVWatts' calibration: the finished hours and half of the hour from 13:00 (not all of it).
    expect(metrics[0]?.expectedTodayWh).toBe(
      expectedFromYield(10_000, DEFAULT_CALIBRATION, finished + current / 2),
    );
  });

  it("reads the hours of as many windows as a fleet series of 22,500 places asks for (8 days each)", async () => {
    const day = Date.UTC(2026, 5, 21);
    const places = ["10.01,20.01", "10.02,20.02", "10.03,20.03"];
    await env.DB.batch(
      places.map((key, i) =>
        env.DB.prepare(
          "INSERT OR REPLACE INTO irradiance_hourly (location_key, hour_start, ghi_wm2) VALUES (?, ?, ?)",
        ).bind(key, day + 12 * HOUR, 100 * (i + 1)),
      ),
    );
    // 180,000 windows (~10 MB as one JSON value, which SQLite refused), the three stored places
    // among them in the first, a middle and the last statement's share.
    const count = 180_000;
    const windows = Array.from({ length: count }, (_, i) =>
      window(`-${i % 90}.${i},0.00`, day, day + 24 * HOUR),
    );
    const at = [0, Math.floor(count / 2), count - 1];
    at.forEach((index, i) => {
      windows[index] = window(places[i] as string, day, day + 24 * HOUR);
    });
    expect(count).toBeGreaterThan(10 * WINDOWS_PER_STATEMENT);
    const hours = await weatherInWindows(createDb(env.DB), windows);
    expect([...hours].map(([key, list]) => [key, list.map((hour) => hour.ghiWm2)])).toEqual(
      places.map((key, i) => [`${key}|${day}`, [100 * (i + 1)]]),
    );
  });
});
