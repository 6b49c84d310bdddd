import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import type { DashboardMetric } from "../../../schema/api/metrics";
import { ensureDayTable, pointDays } from "../../../worker/fleet/data/points";
import { powerReadings } from "../../../worker/fleet/data/reads";
import { createFleetDb } from "../../../worker/fleet/db";
import type { FleetStore } from "../../../worker/fleet/store";
import { pointTableOf, storedPoints, storeOf, storeSql } from "../fleet-helpers";
import { insertOrg, insertSystem, point, storePoints } from "./fleet-fixtures";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STEP = 300_000;

const tablesOf = async (orgId: string) =>
  (
    await storeSql<{ name: string }>(
      orgId,
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB 'points_*' ORDER BY name",
    )
  ).map((row) => row.name);

/** A retention run at `now` through the store, with the rows it wrote (SQLite's change count). */
const retentionAt = (orgId: string, now: number) =>
  runInDurableObject(storeOf(orgId), (store: FleetStore, state) => {
    const changes = () => Number(state.storage.sql.exec("SELECT total_changes() AS n").one().n);
    const before = changes();
    const run = store.runRetention(now, null);
    return { ...run, rowsWritten: changes() - before };
  });

describe("points in a table per day", () => {
  it("drops a day past the retention whole: its points are not deleted row by row, and a system silent since keeps its live values and its last hour", async () => {
    const orgId = await insertOrg();
    const silent = await insertSystem(orgId, { inverters: 2 });
    const reporting = await insertSystem(orgId, { inverters: 1 });
    // A day ahead of the clock, so its last hour is still open when stored (as a live point's is).
    const day = Math.ceil(Date.now() / DAY) * DAY + DAY;
    for (let step = 0; step < 288; step++) {
      const time = day + step * STEP;
      await storePoints(orgId, [
        point(silent, time, 1000 + step, step * 10),
        point(reporting, time, 500, step),
      ]);
    }
    // The reporting system goes on the next day; the silent one sends nothing more.
    await storePoints(orgId, [point(reporting, day + DAY + STEP, 700, 5)]);
    const lastHour = (day + 287 * STEP) / HOUR;
    const hourOf = (hour: number) =>
      storeSql<{ avg_power_w: number; samples: number }>(
        orgId,
        "SELECT avg_power_w, samples FROM system_hourly WHERE hour = ? AND sys = (SELECT sys FROM systems WHERE system_id = ?)",
        Math.floor(hour),
        silent.id,
      );
    // The silent system's last hour is open: no rollup, its mean read from its points.
    expect(await hourOf(lastHour)).toEqual([]);
    const liveBefore = await storeOf(orgId).liveValues(orgId, [silent.id]);
    const metricsAt = async (now: number) =>
      (JSON.parse(await storeOf(orgId).metricsJson(orgId, now)) as DashboardMetric[]).find(
        (m) => m.systemId === silent.id,
      );
    const inverterValuesBefore = (await metricsAt(day + DAY))?.inverters.map((i) => [
      i.sn,
      i.pac,
      i.temperatureC,
    ]);
    expect(inverterValuesBefore).toHaveLength(2);
    expect(await tablesOf(orgId)).toEqual([pointTableOf(day / 1000), pointTableOf((day + DAY) / 1000)]);

    const run = await retentionAt(orgId, day + 36 * DAY);
    // 576 points went with their day: the rows written are the silent system's kept live values
    // (its row and its inverters'), its last hour and its day, and the retention's cursor; not one
    // per point.
    expect(run.removed).toBe(576);
    expect(run.rowsWritten).toBeLessThanOrEqual(6);
    expect(await tablesOf(orgId)).toEqual([pointTableOf((day + DAY) / 1000)]);
    expect((await storedPoints(orgId)).length).toBe(1);
    expect(await storeOf(orgId).liveValues(orgId, [silent.id])).toEqual(liveBefore);
    expect((await metricsAt(day + DAY))?.inverters.map((i) => [i.sn, i.pac, i.temperatureC])).toEqual(
      inverterValuesBefore,
    );
    const mean = (1000 + 276 + 1000 + 287) / 2;
    expect(await hourOf(lastHour)).toEqual([{ avg_power_w: Math.round(mean), samples: 12 }]);
  }, 120_000);

  it("keeps a time zone's open hour in its local days when read: the day's energy and the hour's mean are the same before and after it closes", async () => {
    const orgId = await insertOrg();
    // India is 5:30 from UTC: the UTC hour 18:00-19:00 holds the end of one local day and the start of the next.
    const system = await insertSystem(orgId, { timezone: "Asia/Kolkata" });
    const base = Math.ceil(Date.now() / DAY) * DAY + DAY + 18 * HOUR;
    const points = Array.from({ length: 12 }, (_, i) =>
      point(system, base + i * STEP, 100 * (i + 1), i < 6 ? 5000 + i : i),
    );
    await storePoints(orgId, points);
    const store = storeOf(orgId);
    const read = async () => {
      const text = await store.systemAnalytics(orgId, system.id, "30d", base + 2 * DAY);
      const analytics = text === null ? null : (JSON.parse(text) as AnalyticsRecord);
      return {
        energy: analytics?.series?.energy.filter((d) => d.energyWh !== null).map((d) => [d.date, d.energyWh]),
        hours: (await store.summedHourlyPower(orgId, [system.id], base - HOUR, base + 2 * HOUR)).map((h) => [
          h.hour_start,
          h.power_w,
        ]),
      };
    };
    const open = await read();
    expect(await storeSql(orgId, "SELECT * FROM system_hourly")).toEqual([]);
    // The next hour's first point closes the hour: it is stored as it was read.
    await storePoints(orgId, [point(system, base + HOUR, 50, 11)]);
    expect((await storeSql(orgId, "SELECT hour FROM system_hourly")).length).toBe(1);
    const closed = await read();
    expect(open.hours).toEqual([[base, 650]]);
    expect(closed.hours.filter(([start]) => start === base)).toEqual(open.hours);
    expect(open.energy).toHaveLength(2);
    expect(closed.energy?.slice(0, 2)).toEqual(open.energy);
  });

  it("reads the points stored before the per-day tables beside the new ones, until the retention has removed them", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId, { inverters: 1 });
    const store = storeOf(orgId);
    const now = Date.now();
    const before = Math.floor((now - 2 * HOUR) / 1000);
    // Points of the layout before migration 0005, as an upgraded store holds them.
    await storeSql(
      orgId,
      `INSERT INTO system_readings (sys, t, power_w, energy_today_wh, state)
       SELECT sys, ?, 700, 3000, 1 FROM systems WHERE system_id = ?`,
      before,
      system.id,
    );
    await storeSql(
      orgId,
      `INSERT INTO inverter_readings (inv, t, power_w, energy_today_wh, temperature_dc, state)
       SELECT inv, ?, 650, 2900, 380, 2 FROM inverters WHERE inverter_id = ?`,
      before,
      system.inverterIds[0] ?? "",
    );
    await storePoints(orgId, [point(system, now - 60_000, 900, 3500)]);
    const [detection] = await store.detectionInput(orgId, [system.id], now - 3 * HOUR, now);
    expect(detection?.points).toEqual([
      [before * 1000, 700],
      [Math.floor((now - 60_000) / 1000) * 1000, 900],
    ]);
    expect(detection?.inverters[0]?.points).toEqual([
      [before * 1000, 650, 1],
      [Math.floor((now - 60_000) / 1000) * 1000, 900, 0],
    ]);
    const text = await store.systemAnalytics(orgId, system.id, "24h", now);
    const analytics = text === null ? null : (JSON.parse(text) as AnalyticsRecord);
    expect(analytics?.series?.power.map((p) => p.powerW)).toEqual([700, 900]);
    expect(await store.liveValues(orgId, [system.id])).toMatchObject([{ powerW: 900, energyTodayWh: 3500 }]);
    // Past the retention, they go as before: key by key.
    const run = await retentionAt(orgId, now + 36 * DAY);
    expect(run.removed).toBe(2 + 1);
    expect(await storedPoints(orgId)).toEqual([]);
  });

  it("reads the day tables once a turn, and a table a rolled-back write made is not read in the rest of that turn", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId);
    const day = Math.floor(Date.now() / DAY) + 3;
    await storePoints(orgId, [point(system, day * DAY + HOUR, 500, 100)]);
    const seen = await runInDurableObject(storeOf(orgId), (_store: FleetStore, state) => {
      const db = createFleetDb(state.storage);
      const first = pointDays(db);
      // A write that makes the next day's table and then fails: SQLite takes the table back.
      expect(() =>
        state.storage.transactionSync(() => {
          ensureDayTable(db, day + 1);
          expect(pointDays(db)).toEqual([...first, day + 1]);
          throw new Error("page refused");
        }),
      ).toThrow("page refused");
      const afterRollback = pointDays(db);
      // Read in the same turn: the point is found, and no read asks for the gone table.
      const power = powerReadings(db, system.id, day * DAY, (day + 2) * DAY).map((p) => p.power_w);
      ensureDayTable(db, day + 2);
      return { first, afterRollback, power, afterCreate: pointDays(db) };
    });
    expect(seen.first).toEqual([day]);
    expect(seen.afterRollback).toEqual([day]);
    expect(seen.power).toEqual([500]);
    expect(seen.afterCreate).toEqual([day, day + 2]);
    expect(await tablesOf(orgId)).toEqual([`points_${day}`, `points_${day + 2}`]);
  });
});
