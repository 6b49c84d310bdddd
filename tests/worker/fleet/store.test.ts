import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { DashboardMetric } from "../../../schema/api/metrics";
import {
  orgVersionStatement,
  pageInvertersStatement,
  pageSystemsStatement,
  toDirectory,
  versionFrom,
} from "../../../worker/data/fleet-directory";
import { pruneReadings } from "../../../worker/fleet/data/retention";
import { createFleetDb } from "../../../worker/fleet/db";
import {
  BACKGROUND_REBUILD_FROM_SYSTEMS,
  type CachedReadModels,
  LARGE_FLEET_ANSWER_MAX_AGE_MS,
  READ_MODEL_MAX_AGE_MS,
  READER_CLOCK_BEHIND_MS,
  REBUILD_SPACING_FACTOR,
  rebuildDue,
} from "../../../worker/fleet/read-models/cached";
import {
  DETECTION_INTERVAL_MS,
  RETENTION_ROWS_PER_RUN,
  rawRetentionCutoffs,
} from "../../../worker/fleet/schedule";
import type { FleetStore } from "../../../worker/fleet/store";
import { createDb } from "../../../worker/lib/db";
import { gunzipText } from "../../../worker/lib/gzip";
import { pointTableOf, storedPoints, storeOf, storeSql, sunnyLongitudeNow } from "../fleet-helpers";
import { insertOrg, insertSystem, insertSystemsInBulk, point, refusal, storePoints } from "./fleet-fixtures";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/**
 * Waits until the store's read model `name` may be rebuilt behind its answer again: a large
 * fleet's model is rebuilt no sooner than REBUILD_SPACING_FACTOR times its build time after it was built.
 */
const rebuildSpacingPassed = async (orgId: string, name: string) => {
  const entry = await runInDurableObject(storeOf(orgId), (instance: FleetStore) =>
    (
      instance as unknown as {
        readModels: { cache: Map<string, { buildMs: number; builtAtWallMs: number }> };
      }
    ).readModels.cache.get(name),
  );
  if (!entry) throw new Error(`no ${name} read model held`);
  const wait = entry.builtAtWallMs + REBUILD_SPACING_FACTOR * entry.buildMs - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait + 1));
};

/** The key of the metrics model the store holds, once a rebuild under way has run. */
const heldMetricsKey = (store: ReturnType<typeof storeOf>) =>
  runInDurableObject(store, async (instance: FleetStore) => {
    const models = (
      instance as unknown as {
        readModels: { rebuilding: Map<string, Promise<void>>; cache: Map<string, { key: string }> };
      }
    ).readModels;
    await models.rebuilding.get("metrics");
    return models.cache.get("metrics")?.key;
  });

const metricsAt = async (orgId: string, now: number) =>
  JSON.parse(await storeOf(orgId).metricsJson(orgId, now)) as DashboardMetric[];

describe("the fleet store of an organisation", () => {
  it("answers only for its own organisation, whatever id a caller passes", async () => {
    const orgA = await insertOrg("A");
    const orgB = await insertOrg("B");
    const system = await insertSystem(orgA, { inverters: 1 });
    await storePoints(orgA, [point(system, Date.now() - 60_000, 2500, 9000)]);
    const storeA = storeOf(orgA);
    expect(await refusal(() => storeA.metricsJson(orgB, Date.now()))).toMatch(/another organisation/);
    expect(await refusal(() => storeA.liveValues(orgB, [system.id]))).toMatch(/another organisation/);
    expect(await refusal(() => storeA.storePage(orgB, { directory: [], points: [], messages: [] }))).toMatch(
      /another organisation/,
    );
    // B's own store knows nothing of A's system, even when asked for it by id.
    expect(await storeOf(orgB).liveValues(orgB, [system.id])).toEqual([]);
    expect(await metricsAt(orgB, Date.now())).toEqual([]);
    expect((await metricsAt(orgA, Date.now())).map((m) => m.systemId)).toEqual([system.id]);
  });

  it("keys rows by small integers and stores whole watts, seconds and tenths of a degree, inverters packed in their system's point of the day's table", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId, { inverters: 2 });
    const time = Date.UTC(2026, 5, 1, 10, 0, 7, 450);
    await storePoints(orgId, [point(system, time, 3210.6, 12345.4)]);
    const points = await storedPoints(orgId);
    expect(points).toEqual([
      {
        table: pointTableOf(time / 1000),
        sys: 1,
        t: Math.floor(time / 1000),
        ms: 450,
        power_w: 3211,
        energy_today_wh: 12345,
        state: 1,
        inverters: [
          {
            inv: 1,
            t: Math.floor(time / 1000),
            power_w: 1605,
            energy_today_wh: 6173,
            temperature_dc: 415,
            state: 1,
          },
          {
            inv: 2,
            t: Math.floor(time / 1000),
            power_w: 1605,
            energy_today_wh: 6173,
            temperature_dc: 415,
            state: 1,
          },
        ],
      },
    ]);
    // The live values are the newest point's, to the millisecond of the vendor's time.
    const [live] = await storeOf(orgId).liveValues(orgId, [system.id]);
    expect(live).toMatchObject({ state: "online", powerW: 3211, energyTodayWh: 12345, dataTime: time });
  });

  it("stores a page twice without duplicating anything, and an older page never overwrites live values", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId, { inverters: 1 });
    const now = Date.now();
    await storePoints(orgId, [point(system, now - 60_000, 4000, 20_000)]);
    await storePoints(orgId, [point(system, now - 60_000, 4000, 20_000)]);
    await storePoints(orgId, [point(system, now - 600_000, 1000, 15_000)]);
    const points = await storedPoints(orgId);
    expect(points.length).toBe(2);
    expect(points.flatMap((p) => p.inverters).length).toBe(2);
    const [live] = await storeOf(orgId).liveValues(orgId, [system.id]);
    expect(live).toMatchObject({ powerW: 4000, energyTodayWh: 20_000, dataTime: now - 60_000 });
  });

  it("rolls up only the hours and days a page touched, never the whole history", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId);
    const base = Date.UTC(2026, 5, 1, 8, 0);
    await storePoints(orgId, [point(system, base, 1000, 1000), point(system, base + 5 * 60_000, 3000, 1200)]);
    // An old hour's raw points changed behind the rollup's back: a later page must not recompute it.
    await storeSql(orgId, "UPDATE system_readings SET power_w = 9999 WHERE t = ?", base / 1000);
    const stored = await storePoints(orgId, [point(system, base + 3 * HOUR, 5000, 8000)]);
    expect(stored).toMatchObject({ hoursRolledUp: 1, daysRolledUp: 1 });
    const hours = await storeSql(orgId, "SELECT hour, avg_power_w, samples FROM system_hourly ORDER BY hour");
    expect(hours).toEqual([
      { hour: base / HOUR, avg_power_w: 2000, samples: 2 },
      { hour: base / HOUR + 3, avg_power_w: 5000, samples: 1 },
    ]);
    const [day] = await storeSql(orgId, "SELECT date, energy_wh, peak_power_w FROM system_daily");
    expect(day).toEqual({ date: "2026-06-01", energy_wh: 8000, peak_power_w: 5000 });
  });

  it("counts plant-local days in the plant's zone: the autumn DST day in Amsterdam has 25 hours", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId, {
      timezone: "Europe/Amsterdam",
      latitude: 52.37,
      longitude: 4.9,
    });
    // 2026-10-25 00:00 in Amsterdam is 22:00 UTC the day before; the day ends 25 hours later.
    const start = Date.UTC(2026, 9, 24, 22, 0);
    const points = [
      point(system, start, 0, 100),
      point(system, start + 24 * HOUR + 30 * 60_000, 0, 9000),
      point(system, start + 25 * HOUR, 0, 50),
    ];
    await storePoints(orgId, points);
    const days = await storeSql(orgId, "SELECT date, energy_wh FROM system_daily ORDER BY date");
    expect(days).toEqual([
      { date: "2026-10-25", energy_wh: 9000 },
      { date: "2026-10-26", energy_wh: 50 },
    ]);
  });

  it("mirrors D1's metadata: a rename and a deletion in D1 show in the next answer", async () => {
    const orgId = await insertOrg();
    const kept = await insertSystem(orgId);
    const removed = await insertSystem(orgId, { inverters: 1 });
    const now = Date.now();
    await storePoints(orgId, [point(kept, now - 60_000, 100, 100), point(removed, now - 60_000, 200, 200)]);
    expect(await metricsAt(orgId, now)).toHaveLength(2);

    await env.DB.prepare("UPDATE monitoring_systems SET name = 'Renamed' WHERE id = ?").bind(kept.id).run();
    await env.DB.prepare("DELETE FROM monitoring_systems WHERE id = ?").bind(removed.id).run();
    const after = await metricsAt(orgId, now + 1);
    expect(after.map((m) => [m.systemId, m.stationName])).toEqual([[kept.id, "Renamed"]]);
    // The removed system's points wait for the retention alarm, which removes them whatever their age.
    expect((await storedPoints(orgId)).length).toBe(2);
    const run = await runInDurableObject(storeOf(orgId), (store: FleetStore) =>
      store.runRetention(now, null),
    );
    // One point: its inverter's is packed in it.
    expect(run).toEqual({ removed: 1, cursor: null });
    const [keptKey] = await storeSql<{ sys: number }>(
      orgId,
      "SELECT sys FROM systems WHERE system_id = ?",
      kept.id,
    );
    expect((await storedPoints(orgId)).map((p) => ({ sys: p.sys, inverters: p.inverters }))).toEqual([
      { sys: keptKey?.sys, inverters: [] },
    ]);
  });

  it("answers a system's analytics with a rename in D1 made since the mirror was last read", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId);
    const now = Date.now();
    await storePoints(orgId, [point(system, now - 60_000, 100, 100)]);
    const nameIn = async () => {
      const record = await storeOf(orgId).systemAnalytics(orgId, system.id, "24h", now);
      return record && (JSON.parse(record) as { stationName: string }).stationName;
    };
    const before = await nameIn();
    expect(before).not.toBe("Renamed");
    await env.DB.prepare("UPDATE monitoring_systems SET name = 'Renamed' WHERE id = ?").bind(system.id).run();
    // The first read after the rename finds D1's counter moved and reads again once the mirror is current.
    expect(await nameIn()).toBe("Renamed");
  });

  it("reuses a read model while nothing changed, rebuilds it after a stored page, and never keeps it past its max age", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId, { latitude: 0, longitude: sunnyLongitudeNow() });
    const now = Date.now();
    await storePoints(orgId, [point(system, now - 29.5 * 60_000, 1500, 4000)]);
    const fresh = await metricsAt(orgId, now);
    expect(fresh[0]).toMatchObject({ currentPowerW: 1500, stale: false });

    // A write that bypasses the store's write path is not seen while the model is current...
    await runInDurableObject(storeOf(orgId), (_store: FleetStore, state) => {
      state.storage.sql.exec(`UPDATE ${pointTableOf((now - 29.5 * 60_000) / 1000)} SET power_w = 7`);
    });
    expect((await metricsAt(orgId, now + READ_MODEL_MAX_AGE_MS - 1))[0]?.currentPowerW).toBe(1500);
    // ...and is once the model is older than its max age, when time-driven fields move too.
    expect((await metricsAt(orgId, now + READ_MODEL_MAX_AGE_MS))[0]).toMatchObject({
      currentPowerW: 7,
      stale: true,
      status: "stale",
    });

    await storePoints(orgId, [point(system, now, 2600, 4100)]);
    expect((await metricsAt(orgId, now + READ_MODEL_MAX_AGE_MS + 1))[0]).toMatchObject({
      currentPowerW: 2600,
      stale: false,
    });
  });

  it("answers a reader whose clock is a moment behind the model's build from that model, and builds one for an earlier instant", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId, { latitude: 0, longitude: sunnyLongitudeNow() });
    const now = Date.now();
    const pointAt = now - 2 * 3_600_000;
    await storePoints(orgId, [point(system, pointAt, 1500, 4000)]);
    expect((await metricsAt(orgId, now))[0]?.currentPowerW).toBe(1500);
    // A write that bypasses the store's write path shows only in a model built after it.
    await runInDurableObject(storeOf(orgId), (_store: FleetStore, state) => {
      state.storage.sql.exec(`UPDATE ${pointTableOf(pointAt / 1000)} SET power_w = 7`);
    });
    expect((await metricsAt(orgId, now - READER_CLOCK_BEHIND_MS))[0]?.currentPowerW).toBe(1500);
    expect((await metricsAt(orgId, now - READER_CLOCK_BEHIND_MS - 1))[0]?.currentPowerW).toBe(7);
  });

  it("sends the metrics answer only to a caller that does not hold the current one", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId);
    const now = Date.now();
    await storePoints(orgId, [point(system, now - 60_000, 900, 900)]);
    const store = storeOf(orgId);
    const first = await store.metricsAnswer(orgId, now, 1, null);
    expect(first).toMatchObject({ total: 1, pageCount: 1 });
    expect(JSON.parse(await gunzipText(first.gzip ?? new Uint8Array()))).toHaveLength(1);
    expect(await store.metricsAnswer(orgId, now + 1, 1, first.key)).toMatchObject({
      key: first.key,
      gzip: null,
    });
    await storePoints(orgId, [point(system, now, 1900, 1000)]);
    const changed = await store.metricsAnswer(orgId, now + 2, 1, first.key);
    expect(changed.key).not.toBe(first.key);
    const changedJson = await gunzipText(changed.gzip ?? new Uint8Array());
    expect((JSON.parse(changedJson) as DashboardMetric[])[0]?.currentPowerW).toBe(1900);
    // Past the max age the answer is rebuilt under a new key even when nothing was written.
    const aged = await store.metricsAnswer(orgId, now + 2 + READ_MODEL_MAX_AGE_MS, 1, changed.key);
    expect(aged.key).not.toBe(changed.key);
    expect(aged.gzip).not.toBeNull();
  });

  it("spaces a large fleet's rebuilds by REBUILD_SPACING_FACTOR times the last build's time", () => {
    const built = { buildMs: 2_000, builtAtWallMs: 1_000_000 };
    expect(REBUILD_SPACING_FACTOR).toBeGreaterThanOrEqual(1);
    expect(rebuildDue(built, 1_000_000 + 2_000)).toBe(REBUILD_SPACING_FACTOR <= 1);
    expect(rebuildDue(built, 1_000_000 + REBUILD_SPACING_FACTOR * 2_000 - 1)).toBe(false);
    expect(rebuildDue(built, 1_000_000 + REBUILD_SPACING_FACTOR * 2_000)).toBe(true);
    // A model built in no time may be rebuilt at once.
    expect(rebuildDue({ buildMs: 0, builtAtWallMs: 1_000_000 }, 1_000_000)).toBe(true);
  });

  it("answers a large fleet's read model while rebuilding it after a write, a small one's after rebuilding", async () => {
    const orgId = await insertOrg();
    const now = Date.now();
    // Named after the system under test ("Plant …"), so it is on the first page by name.
    await insertSystemsInBulk(orgId, BACKGROUND_REBUILD_FROM_SYSTEMS - 1, now, "Zone ");
    const system = await insertSystem(orgId);
    await storePoints(orgId, [point(system, now - 60_000, 900, 900)]);
    const store = storeOf(orgId);
    const powerIn = async (answer: { gzip: Uint8Array | null }) =>
      (JSON.parse(await gunzipText(answer.gzip ?? new Uint8Array())) as DashboardMetric[]).find(
        (m) => m.systemId === system.id,
      )?.currentPowerW;
    const first = await store.metricsAnswer(orgId, now, 1, null);
    expect(await powerIn(first)).toBe(900);
    await storePoints(orgId, [point(system, now, 1900, 1000)]);
    await rebuildSpacingPassed(orgId, "metrics");
    // The write is not waited for: the last answer comes back and a rebuild starts behind it.
    expect(await store.metricsAnswer(orgId, now + 1, 1, first.key)).toMatchObject({
      key: first.key,
      gzip: null,
    });
    const rebuildDone = () =>
      runInDurableObject(store, (instance: FleetStore) =>
        (
          instance as unknown as { readModels: { rebuilding: Map<string, Promise<void>> } }
        ).readModels.rebuilding.get("metrics"),
      );
    await rebuildDone();
    const rebuilt = await store.metricsAnswer(orgId, now + 2, 1, first.key);
    expect(rebuilt.key).not.toBe(first.key);
    expect(await powerIn(rebuilt)).toBe(1900);

    // Past its max age the model is answered as it is once more, and rebuilt behind the answer...
    await rebuildSpacingPassed(orgId, "metrics");
    const agedAt = now + 2 + READ_MODEL_MAX_AGE_MS;
    expect(await store.metricsAnswer(orgId, agedAt, 1, rebuilt.key)).toMatchObject({
      key: rebuilt.key,
      gzip: null,
    });
    await rebuildDone();
    const afterAge = await store.metricsAnswer(orgId, agedAt + 1, 1, rebuilt.key);
    expect(afterAge.key).not.toBe(rebuilt.key);
    // ...but one older than the large fleet's limit is rebuilt before answering.
    const longAfter = await store.metricsAnswer(
      orgId,
      agedAt + LARGE_FLEET_ANSWER_MAX_AGE_MS,
      1,
      afterAge.key,
    );
    expect(longAfter.key).not.toBe(afterAge.key);
    expect(longAfter.gzip).not.toBeNull();

    // One system fewer than the threshold: the answer after a write already holds it.
    const smallOrg = await insertOrg();
    const small = await insertSystem(smallOrg);
    await storePoints(smallOrg, [point(small, now - 60_000, 900, 900)]);
    const smallFirst = await storeOf(smallOrg).metricsAnswer(smallOrg, now, 1, null);
    await storePoints(smallOrg, [point(small, now, 1900, 1000)]);
    const smallNext = await storeOf(smallOrg).metricsAnswer(smallOrg, now + 1, 1, smallFirst.key);
    expect(smallNext.key).not.toBe(smallFirst.key);
  });

  it("rebuilds a large fleet's site lists behind the answer when only the weather moved, recounts alerts at once, and rebuilds before answering after a member's edit", async () => {
    const orgId = await insertOrg();
    const now = Date.now();
    await insertSystemsInBulk(orgId, BACKGROUND_REBUILD_FROM_SYSTEMS, now, "Zone ");
    const siteId = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO sites (id, org_id, name, address, latitude, longitude, timezone, created_at, updated_at)
         VALUES (?, ?, 'Harbour', 'Quay 1', 51.5, -0.1, 'UTC', ?, ?)`,
      ).bind(siteId, orgId, now, now),
      env.DB.prepare("UPDATE monitoring_systems SET site_id = ? WHERE id = ?").bind(siteId, `${orgId}-1`),
    ]);
    const store = storeOf(orgId);
    /** The site's name in the model answered at `at`, and whether a rebuild is running behind it. */
    const answered = (at: number) =>
      runInDurableObject(store, async (instance: FleetStore) => {
        const models = (
          instance as unknown as {
            readModels: {
              sitesIndex: CachedReadModels["sitesIndex"];
              rebuilding: Map<string, Promise<void>>;
            };
          }
        ).readModels;
        const index = await models.sitesIndex(orgId, at);
        const running = models.rebuilding.get("sites");
        await running;
        return {
          name: index.entries[0]?.row.name,
          sites: index.entries.length,
          openAlerts: index.entries[0]?.openAlerts,
          rebuiltBehind: running !== undefined,
        };
      });
    expect(await answered(now)).toEqual({ name: "Harbour", sites: 1, openAlerts: 0, rebuiltBehind: false });
    // A history backfill's weather moves D1's irradiance counter: the lists answer at once.
    await env.DB.prepare(
      "INSERT INTO irradiance_hourly (location_key, hour_start, ghi_wm2) VALUES ('51.5,-0.1', ?, 300)",
    )
      .bind(now - (now % 3_600_000))
      .run();
    await rebuildSpacingPassed(orgId, "sites");
    expect(await answered(now + 1)).toEqual({
      name: "Harbour",
      sites: 1,
      openAlerts: 0,
      rebuiltBehind: true,
    });
    // An alert the vendor's alarm list or the detection raises is counted at once, without a rebuild.
    await env.DB.prepare(
      `INSERT INTO alerts (id, org_id, system_id, title, message, severity, created_at, resolved, rule)
       VALUES (?, ?, ?, 'Inverter fault', 'Grid lost', 'critical', ?, 0, 'vendor_alarm')`,
    )
      .bind(crypto.randomUUID(), orgId, `${orgId}-1`, now)
      .run();
    expect(await answered(now + 2)).toEqual({
      name: "Harbour",
      sites: 1,
      openAlerts: 1,
      rebuiltBehind: false,
    });
    // A sync page brings a new plant on a site of its own, its D1 rows written with the page's
    // counters read around them as a sync writes them: the lists answer at once and take it behind.
    const d1 = createDb(env.DB);
    const [before, , , after, systemRows, inverterRows] = await env.DB.batch([
      orgVersionStatement(d1, orgId),
      env.DB.prepare(
        `INSERT INTO sites (id, org_id, name, address, latitude, longitude, timezone, created_at, updated_at)
         VALUES (?, ?, 'Quay', 'Quay 2', 51.5, -0.1, 'UTC', ?, ?)`,
      ).bind(`${siteId}-new`, orgId, now, now),
      env.DB.prepare(
        `INSERT INTO monitoring_systems (id, org_id, provider, provider_system_id, name, capacity_w, state, timezone,
           site_id, created_at, updated_at) VALUES (?, ?, 'solis', 'P-new', 'Quay plant', 5000, 'online', 'UTC', ?, ?, ?)`,
      ).bind(`${orgId}-new`, orgId, `${siteId}-new`, now, now),
      orgVersionStatement(d1, orgId),
      pageSystemsStatement(d1, orgId, "solis", ["P-new"]),
      pageInvertersStatement(d1, orgId, "solis", ["P-new"]),
    ]);
    await store.storePage(orgId, {
      directory: toDirectory(systemRows?.results, inverterRows?.results),
      versions: { before: versionFrom(before), after: versionFrom(after) },
      points: [],
      messages: [],
    });
    await rebuildSpacingPassed(orgId, "sites");
    expect(await answered(now + 3)).toEqual({
      name: "Harbour",
      sites: 1,
      openAlerts: 1,
      rebuiltBehind: true,
    });
    expect(await answered(now + 4)).toMatchObject({ sites: 2, rebuiltBehind: false });
    // A member renames the site: the next answer already says so.
    await env.DB.prepare("UPDATE sites SET name = 'Harbour North' WHERE id = ?").bind(siteId).run();
    expect(await answered(now + 5)).toEqual({
      name: "Harbour North",
      sites: 2,
      openAlerts: 1,
      rebuiltBehind: false,
    });
  });

  it("answers a model built while the fleet was small as a large fleet's once the fleet has grown", async () => {
    const orgId = await insertOrg();
    const now = Date.now();
    const system = await insertSystem(orgId);
    await storePoints(orgId, [point(system, now - 60_000, 900, 900)]);
    const store = storeOf(orgId);
    const first = await store.metricsAnswer(orgId, now, 1, null);
    // A listing brings the rest of the account: the model held was built for one system.
    await insertSystemsInBulk(orgId, BACKGROUND_REBUILD_FROM_SYSTEMS, now, "Zone ");
    await storePoints(orgId, [point(system, now, 1900, 1000)]);
    await rebuildSpacingPassed(orgId, "metrics");
    const keyBefore = await heldMetricsKey(store);
    const answered = await store.metricsAnswer(orgId, now + 1, 1, first.key);
    expect(answered).toMatchObject({ key: first.key, gzip: null });
    // The answer started a rebuild behind it: once it has run (at 500 systems it may be over
    // before this call arrives), the model held is a new one, which no reader waited for.
    expect(await heldMetricsKey(store)).not.toBe(keyBefore);
    const after = await store.metricsAnswer(orgId, now + 2, 1, first.key);
    expect(after.total).toBe(BACKGROUND_REBUILD_FROM_SYSTEMS + 1);
  });

  it("builds a model once for readers that arrive together on a cold store", async () => {
    const orgId = await insertOrg();
    const now = Date.now();
    const system = await insertSystem(orgId);
    await storePoints(orgId, [point(system, now - 60_000, 900, 900)]);
    const shared = await runInDurableObject(storeOf(orgId), async (instance: FleetStore) => {
      const models = (instance as unknown as { readModels: CachedReadModels }).readModels;
      const snapshots = await Promise.all([0, 1, 2, 3].map(() => models.metricsSnapshot(orgId, now)));
      const sites = await Promise.all([0, 1].map(() => models.sitesIndex(orgId, now)));
      return {
        metrics: snapshots.every((snapshot) => snapshot === snapshots[0]),
        sites: sites[0] === sites[1],
      };
    });
    expect(shared).toEqual({ metrics: true, sites: true });
  });

  it("removes points stored before the per-day tables past the retention in bounded runs, keeping rollups", async () => {
    const orgId = await insertOrg();
    const now = Date.UTC(2026, 10, 20, 12, 0);
    const old = now - 40 * DAY;
    const systems = [await insertSystem(orgId), await insertSystem(orgId)];
    await storePoints(orgId, [point(systems[0] as never, now - DAY, 10, 10)]);
    // Seeded in SQL in the layout before the per-day tables: more old points than one run may
    // remove, spread over two systems.
    const perSystem = Math.ceil((RETENTION_ROWS_PER_RUN * 1.5) / 2);
    await runInDurableObject(storeOf(orgId), (_store: FleetStore, state) => {
      for (const sys of [1, 2]) {
        state.storage.sql.exec(
          `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)
           INSERT INTO system_readings (sys, t, power_w, energy_today_wh, state) SELECT ?, ? + i, 1, 1, 1 FROM n`,
          perSystem,
          sys,
          Math.floor(old / 1000),
        );
      }
    });
    const prune = (cursor: unknown) =>
      runInDurableObject(storeOf(orgId), (store: FleetStore) =>
        store.runRetention(now, cursor as Parameters<FleetStore["runRetention"]>[1]),
      );
    const first = await prune(null);
    expect(first.removed).toBe(RETENTION_ROWS_PER_RUN);
    expect(first.cursor).not.toBeNull();
    const second = await prune(first.cursor);
    expect(first.removed + second.removed).toBe(perSystem * 2);
    expect(second.cursor).toBeNull();
    // Only the recent point is left; its hour and day are still rolled up.
    expect((await storedPoints(orgId)).length).toBe(1);
    const [rollups] = await storeSql(
      orgId,
      "SELECT (SELECT count(*) FROM system_hourly) AS hours, (SELECT count(*) FROM system_daily) AS days",
    );
    expect(rollups).toEqual({ hours: 1, days: 1 });
  });

  it("schedules its retention alarm when it first stores a page, and the alarm prunes", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId);
    const now = Date.now();
    const store = storeOf(orgId);
    const alarmOf = () => runInDurableObject(store, (_s: FleetStore, state) => state.storage.getAlarm());
    const dueOf = async (key: string) =>
      Number(
        (await storeSql<{ value: string }>(orgId, "SELECT value FROM meta WHERE key = ?", key))[0]?.value,
      );
    expect(await alarmOf()).toBeNull();
    await storePoints(orgId, [point(system, now - 40 * DAY, 1, 1), point(system, now - 60_000, 1, 1)]);
    expect(await dueOf("retention_due")).toBeGreaterThan(now + DAY - 60_000);
    // The one alarm is set for what comes first: detection, five minutes on, then retention.
    expect(await alarmOf()).toBe(await dueOf("detection_due"));
    expect(await dueOf("detection_due")).toBeLessThanOrEqual(Date.now() + DETECTION_INTERVAL_MS);
    // A day later (the due time moved back rather than waiting a day), the alarm prunes.
    await storeSql(orgId, "UPDATE meta SET value = ? WHERE key = 'retention_due'", String(Date.now() - 1));
    expect(await runDurableObjectAlarm(store)).toBe(true);
    expect((await storedPoints(orgId)).map((p) => p.t)).toEqual([Math.floor((now - 60_000) / 1000)]);
    // A finished pass comes back the next day.
    expect(await dueOf("retention_due")).toBeGreaterThan(Date.now() + DAY - 60_000);
    expect(await alarmOf()).toBe(await dueOf("detection_due"));
  });

  it("keeps raw points for RAW_RETENTION_DAYS (35 by default)", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId);
    const now = Date.now();
    await storePoints(orgId, [point(system, now - 34 * DAY, 1, 1), point(system, now - 36 * DAY, 1, 1)]);
    const run = await runInDurableObject(storeOf(orgId), (store: FleetStore) =>
      store.runRetention(now, null),
    );
    expect(run.removed).toBe(1);
    expect((await storedPoints(orgId)).map((p) => p.t)).toEqual([Math.floor((now - 34 * DAY) / 1000)]);
    expect(env.RAW_RETENTION_DAYS).toBeUndefined();
  });

  it("keeps inverters' raw points for INVERTER_RAW_RETENTION_DAYS when set, systems' for RAW_RETENTION_DAYS", async () => {
    const now = Date.now();
    expect(rawRetentionCutoffs({}, now)).toEqual({
      system_readings: now - 35 * DAY,
      inverter_readings: now - 35 * DAY,
    });
    expect(rawRetentionCutoffs({ RAW_RETENTION_DAYS: "20" }, now)).toEqual({
      system_readings: now - 20 * DAY,
      inverter_readings: now - 20 * DAY,
    });
    expect(rawRetentionCutoffs({ RAW_RETENTION_DAYS: "35", INVERTER_RAW_RETENTION_DAYS: "14" }, now)).toEqual(
      {
        system_readings: now - 35 * DAY,
        inverter_readings: now - 14 * DAY,
      },
    );
    // Nonsense falls back to the default rather than deleting everything.
    expect(rawRetentionCutoffs({ INVERTER_RAW_RETENTION_DAYS: "0" }, now).inverter_readings).toBe(
      now - 35 * DAY,
    );

    const orgId = await insertOrg();
    const system = await insertSystem(orgId, { inverters: 2 });
    await storePoints(orgId, [point(system, now - 20 * DAY, 1, 1), point(system, now - 60_000, 1, 1)]);
    const run = await runInDurableObject(storeOf(orgId), (_store: FleetStore, state) =>
      pruneReadings(
        createFleetDb(state.storage),
        { beforeMs: rawRetentionCutoffs({ INVERTER_RAW_RETENTION_DAYS: "14" }, now), maxRows: 100 },
        null,
      ),
    );
    expect(run).toEqual({ removed: 2, cursor: null });
    const points = await storedPoints(orgId);
    expect(points.map((p) => p.t)).toEqual([
      Math.floor((now - 20 * DAY) / 1000),
      Math.floor((now - 60_000) / 1000),
    ]);
    expect([...new Set(points.flatMap((p) => p.inverters.map((i) => i.t)))]).toEqual([
      Math.floor((now - 60_000) / 1000),
    ]);
  });
});
