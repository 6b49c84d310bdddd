import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { HOURLY_RETENTION_DAYS } from "../../../worker/fleet/data/retention";
import { RETENTION_ROWS_PER_RUN } from "../../../worker/fleet/schedule";
import type { FleetStore } from "../../../worker/fleet/store";
import { storeOf, storeSql } from "../fleet-helpers";
import { insertOrg, insertSystem, point, storePoints } from "./fleet-fixtures";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONE = "Europe/Amsterdam";

const retentionDue = async (orgId: string) =>
  Number(
    (await storeSql<{ value: string }>(orgId, "SELECT value FROM meta WHERE key = 'retention_due'"))[0]
      ?.value,
  );

/**
 * Makes the store's retention due now and runs its alarm, as the next day's alarm would. The
 * alarm is held an hour away first, so the runtime cannot run it by itself meanwhile (a pass comes
 * back a second later: on a slow machine the runtime ran one pass, or two, before this call, and
 * the due time read after them was not the pass's the test counts); this call runs it now.
 */
async function retentionAlarm(orgId: string) {
  await runInDurableObject(storeOf(orgId), (_store, state) => state.storage.setAlarm(Date.now() + HOUR));
  await storeSql(orgId, "UPDATE meta SET value = ? WHERE key = 'retention_due'", String(Date.now() - 1));
  expect(await runDurableObjectAlarm(storeOf(orgId))).toBe(true);
  const due = await retentionDue(orgId);
  // The next pass is this test's to run: the alarm a second away is held back an hour so the
  // runtime does not run it by itself while the test counts what this pass left.
  await runInDurableObject(storeOf(orgId), (_store, state) => state.storage.setAlarm(Date.now() + HOUR));
  return due;
}

describe("rollups for years", () => {
  it("folds hourly rollups older than 13 months into their days, bounded per retention pass; days stay", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId, { timezone: ZONE, inverters: 1 });
    const now = Date.now();
    // A recent point: the store's retention is scheduled, and its hour and day are recent.
    await storePoints(orgId, [point(system, now - 2 * HOUR, 1000, 5000)]);
    const [{ sys } = { sys: 0 }] = await storeSql<{ sys: number }>(
      orgId,
      "SELECT sys FROM systems WHERE system_id = ?",
      system.id,
    );
    // Two old plant-local days in full (the 25-hour DST day among them when it falls there) and
    // more old hours than one pass folds, on a second key; and a day a little younger than 13 months.
    const old = DateTime.fromMillis(now - (HOURLY_RETENTION_DAYS + 30) * DAY, { zone: ZONE }).startOf("day");
    const firstDay = old.toISODate() ?? "";
    const secondDay = old.plus({ days: 1 }).toISODate() ?? "";
    const oldStart = old.toMillis() / HOUR;
    const oldEnd = old.plus({ days: 2 }).toMillis() / HOUR;
    const kept = DateTime.fromMillis(now - (HOURLY_RETENTION_DAYS - 2) * DAY, { zone: ZONE }).startOf("day");
    const backlog = RETENTION_ROWS_PER_RUN + 1_000;
    await runInDurableObject(storeOf(orgId), (instance: FleetStore, state) => {
      const sql = state.storage.sql;
      // Mean power 1,000 W from 08:00 to 16:00 local (the hours' starts), 0 otherwise.
      sql.exec(
        `WITH RECURSIVE h(hour) AS (SELECT ? UNION ALL SELECT hour + 1 FROM h WHERE hour + 1 < ?)
         INSERT INTO system_hourly (sys, hour, avg_power_w, samples) SELECT ?, hour, 0, 12 FROM h`,
        oldStart,
        oldEnd,
        sys,
      );
      for (const date of [firstDay, secondDay]) {
        const start = DateTime.fromISO(`${date}T08:00`, { zone: ZONE }).toMillis() / HOUR;
        sql.exec(
          "UPDATE system_hourly SET avg_power_w = 1000 WHERE sys = ? AND hour >= ? AND hour < ?",
          sys,
          start,
          start + 8,
        );
      }
      // The first day has its vendor counter; the second has none (its energy comes from its hours).
      sql.exec(
        "INSERT INTO system_daily (sys, date, energy_wh, peak_power_w) VALUES (?, ?, 7900, 1100)",
        sys,
        firstDay,
      );
      const keptStart = kept.toMillis() / HOUR;
      sql.exec(
        `WITH RECURSIVE h(hour) AS (SELECT ? UNION ALL SELECT hour + 1 FROM h WHERE hour + 1 < ?)
         INSERT INTO system_hourly (sys, hour, avg_power_w, samples) SELECT ?, hour, 500, 12 FROM h`,
        keptStart,
        keptStart + 24,
        sys,
      );
      // A removed system's old hours (its key is past every system's): a backlog larger than a pass.
      sql.exec(
        `WITH RECURSIVE h(hour) AS (SELECT ? UNION ALL SELECT hour + 1 FROM h WHERE hour + 1 < ?)
         INSERT INTO system_hourly (sys, hour, avg_power_w, samples) SELECT 9999, hour, 10, 12 FROM h`,
        oldStart - backlog,
        oldStart,
      );
      instance.noteDirectWrite();
    });
    const hoursBefore = await storeSql<{ n: number }>(orgId, "SELECT count(*) AS n FROM system_hourly");

    // The first pass folds at most its bound and comes back a second later.
    const due = await retentionAlarm(orgId);
    expect(due).toBeLessThan(Date.now() + 60_000);
    const [afterFirst] = await storeSql<{ n: number }>(orgId, "SELECT count(*) AS n FROM system_hourly");
    expect((hoursBefore[0]?.n ?? 0) - (afterFirst?.n ?? 0)).toBe(RETENTION_ROWS_PER_RUN);
    // The next finishes and leaves the retention for the next day.
    expect(await retentionAlarm(orgId)).toBeGreaterThan(Date.now() + DAY - 60_000);

    const hours = await storeSql<{ hour: number }>(orgId, "SELECT hour FROM system_hourly ORDER BY hour");
    // Only the hours younger than 13 months are left: the kept day's and the recent point's.
    expect(hours.every(({ hour }) => hour * HOUR >= now - HOURLY_RETENTION_DAYS * DAY)).toBe(true);
    expect(hours.length).toBeGreaterThanOrEqual(24);
    const days = await storeSql(
      orgId,
      `SELECT date, energy_wh, peak_power_w, folded_hours, producing_hours, power_wh FROM system_daily
       WHERE sys = ? AND date IN (?, ?) ORDER BY date`,
      sys,
      firstDay,
      secondDay,
    );
    const hoursIn = (date: string) => {
      const day = DateTime.fromISO(date, { zone: ZONE });
      return day.plus({ days: 1 }).diff(day, "hours").hours;
    };
    expect(days).toEqual([
      {
        date: firstDay,
        energy_wh: 7900,
        peak_power_w: 1100,
        folded_hours: hoursIn(firstDay),
        producing_hours: 8,
        power_wh: 8000,
      },
      {
        date: secondDay,
        energy_wh: 8000,
        peak_power_w: null,
        folded_hours: hoursIn(secondDay),
        producing_hours: 8,
        power_wh: 8000,
      },
    ]);
  }, 120_000);
});
