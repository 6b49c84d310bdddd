import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { readFullDirectory } from "../../../worker/data/fleet-directory";
import type { Env } from "../../../worker/env";
import { shardName } from "../../../worker/fleet/shards";
import type { FleetStore } from "../../../worker/fleet/store";
import type { DirectoryEntry, SystemPoint } from "../../../worker/fleet/types";
import { createDb } from "../../../worker/lib/db";
import { storeOf } from "../fleet-helpers";
import { insertOrg, insertSystem, point, refusal } from "./fleet-fixtures";

const STEP_MS = 300_000;
const ZONES = ["UTC", "Europe/Amsterdam", "America/New_York", "Asia/Tokyo"];

type StoreSetting = "FLEET_SHARD_SYSTEMS" | "FLEET_STORE_BOUND_BYTES";

/**
 * A setting of the stores' environment, as a deployment would set it (undefined unsets it). The
 * stores of this runtime share one environment: each test unsets what it set.
 */
const setStoreEnv = (orgId: string, name: StoreSetting, value: string | undefined) =>
  runInDurableObject(storeOf(orgId), (instance: FleetStore) => {
    const storeEnv = (instance as unknown as { env: Env }).env;
    if (value === undefined) delete storeEnv[name];
    else storeEnv[name] = value;
  });

/** A shard's object, called as its organisation's object calls it (the stub's types stop at shardCall's). */
const shardStub = (orgId: string, shard: number) =>
  env.FLEET_STORE.get(env.FLEET_STORE.idFromName(shardName(orgId, shard))) as unknown as {
    shardCall(
      orgId: string,
      shard: number,
      work: "storageStats",
      args: [],
    ): Promise<{ rows: { systems: number } }>;
  };

/** The systems shard `shard` holds, asked as `orgId`. */
const shardSystems = async (orgId: string, shard: number, asOrg = orgId) =>
  (await shardStub(orgId, shard).shardCall(asOrg, shard, "storageStats", [])).rows.systems;

/** A site's id in an organisation: the same name in every one, so answers compare. */
const siteId = (orgId: string, name: string) => `${orgId}-site-${name}`;

/**
 * `count` systems with two inverters each over four zones, named by their index counted from the
 * last (the same in every organisation), on two sites: "spread" (every third system, so held by every store of a
 * sharded organisation) and "rest".
 */
async function fleetOf(orgId: string, count: number) {
  const created = Date.UTC(2026, 0, 1);
  for (const name of ["spread", "rest"]) {
    await env.DB.prepare(
      `INSERT INTO sites (id, org_id, name, address, latitude, longitude, timezone, is_active, created_at, updated_at)
       VALUES (?, ?, ?, 'Street 1', 52.1, 5.1, 'Europe/Amsterdam', 1, ?, ?)`,
    )
      .bind(siteId(orgId, name), orgId, `Site ${name}`, created, created)
      .run();
  }
  const systems: { id: string; inverterIds: string[] }[] = [];
  for (let i = 0; i < count; i++) {
    const system = await insertSystem(orgId, {
      inverters: 2,
      timezone: ZONES[i % ZONES.length],
      capacityW: 5_000,
    });
    await env.DB.prepare(
      "UPDATE monitoring_systems SET name = ?, provider_system_id = ?, site_id = ? WHERE id = ?",
    )
      .bind(`Plant ${count - 1 - i}`, `P-${i}`, siteId(orgId, i % 3 === 0 ? "spread" : "rest"), system.id)
      .run();
    for (const [k, inverterId] of system.inverterIds.entries()) {
      await env.DB.prepare("UPDATE inverters SET serial = ? WHERE id = ?")
        .bind(`SN-${i}-${k}`, inverterId)
        .run();
    }
    systems.push(system);
  }
  const { directory } = await readFullDirectory(createDb(env.DB), orgId);
  const entries = new Map(directory.map((entry) => [entry.systemId, entry]));
  return systems.map((system) => ({ ...system, entry: entries.get(system.id) as DirectoryEntry }));
}

type Fleet = Awaited<ReturnType<typeof fleetOf>>;

/**
 * An hour of points ending now, stored as a sync stores them: every 5 minutes a page per two
 * systems with their directory entries, the pages of one step side by side.
 */
async function storeHour(orgId: string, fleet: Fleet, endMs: number) {
  const store = storeOf(orgId);
  for (let step = 11; step >= 0; step--) {
    const time = endMs - step * STEP_MS;
    const pages: { directory: DirectoryEntry[]; points: SystemPoint[] }[] = [];
    for (let first = 0; first < fleet.length; first += 2) {
      const members = fleet.slice(first, first + 2);
      pages.push({
        directory: members.map((system) => system.entry),
        points: members.map((system, i) => point(system, time, 1_000 + 100 * (first + i), (12 - step) * 80)),
      });
    }
    await Promise.all(pages.map((page) => store.storePage(orgId, { ...page, messages: [] })));
  }
}

/** Yesterday's loss account of each system (its own figures by index), written in the store holding it. */
async function seedLosses(orgId: string, fleet: Fleet, date: string) {
  const stores = [
    storeOf(orgId),
    ...[1, 2, 3].map((shard) => env.FLEET_STORE.get(env.FLEET_STORE.idFromName(shardName(orgId, shard)))),
  ];
  for (const [i, system] of fleet.entries()) {
    let written = false;
    for (const stub of stores) {
      written ||= await runInDurableObject(stub, (instance: FleetStore, state) => {
        const row = state.storage.sql
          .exec("SELECT sys FROM systems WHERE system_id = ?", system.id)
          .toArray()[0];
        if (!row) return false;
        state.storage.sql.exec(
          `INSERT INTO system_losses (sys, date, expected_wh, actual_wh, weather_wh, downtime_wh, partial_outage_wh,
             clipping_wh, soiling_wh, underperformance_wh, unmeasured_wh, healthy_reference_wh, healthy_actual_wh,
             soilable_wh, peak_power_w, plateau_steps, precipitation_mm, calibration, ac_limit_w, computed_at)
           VALUES (?, ?, ?, ?, 0, ?, 0, ?, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, NULL, ?)`,
          row.sys,
          date,
          20_000 + 1_000 * i,
          18_000 + 500 * i,
          1_000 + 100 * i,
          200 * i,
          Date.now(),
        );
        instance.noteDirectWrite();
        return true;
      });
    }
    if (!written) throw new Error(`no store holds ${system.id}`);
  }
}

/** `text` with the second organisation's ids put for the first's (the fleets' systems pair by index). */
function asFirst(text: string, first: Fleet, second: Fleet, firstOrg: string, secondOrg: string): string {
  let out = text.replaceAll(`${secondOrg}-site-`, `${firstOrg}-site-`);
  for (const [i, system] of second.entries()) {
    const twin = first[i];
    if (!twin) continue;
    out = out.replaceAll(system.id, twin.id);
    for (const [k, inverterId] of system.inverterIds.entries())
      out = out.replaceAll(inverterId, twin.inverterIds[k] ?? "");
  }
  return out;
}

describe("shards of a large organisation", () => {
  afterEach(async () => {
    const orgId = await insertOrg("Settings");
    await setStoreEnv(orgId, "FLEET_SHARD_SYSTEMS", undefined);
    await setStoreEnv(orgId, "FLEET_STORE_BOUND_BYTES", undefined);
  });

  it("gives new systems to shards once the organisation's store is full, loses no reading while pages arrive side by side, and answers every read as one store would", async () => {
    const sharded = await insertOrg("Sharded Fleet");
    const single = await insertOrg("Single Fleet");
    const fleetA = await fleetOf(sharded, 7);
    const fleetB = await fleetOf(single, 7);
    const now = Math.floor(Date.now() / STEP_MS) * STEP_MS;
    // Three systems a store: seven systems are held by the organisation's store and two shards.
    await setStoreEnv(sharded, "FLEET_SHARD_SYSTEMS", "3");
    await storeHour(sharded, fleetA, now);
    await setStoreEnv(sharded, "FLEET_SHARD_SYSTEMS", undefined);
    await storeHour(single, fleetB, now);

    const a = storeOf(sharded);
    const b = storeOf(single);
    const statsA = await a.storageStats(sharded);
    const statsB = await b.storageStats(single);
    expect(statsA.stores).toHaveLength(3);
    expect(statsB.stores).toHaveLength(1);
    expect(statsA.rows.systems).toBe(7);
    expect(statsA.rows.systemReadings).toBe(7 * 12);
    expect(statsA.rows.inverterReadings).toBe(7 * 12 * 2);
    expect(statsA.rows).toEqual(statsB.rows);
    // Each store holds its own systems only, in the order they were first seen.
    const held = await Promise.all([1, 2].map((shard) => shardSystems(sharded, shard)));
    expect(held).toEqual([3, 1]);

    const ids = fleetA.map((system) => system.id);
    const idsB = fleetB.map((system) => system.id);
    /** Lists by system in system order (the organisations' ids differ, so do their orders). */
    const inOrder = (answer: unknown) =>
      Array.isArray(answer) && answer.every((row) => typeof row?.systemId === "string")
        ? [...answer].sort((x, y) => (x.systemId < y.systemId ? -1 : 1))
        : answer;
    const same = async (read: (store: typeof a, orgId: string, systemIds: string[]) => Promise<unknown>) => {
      const [answerA, answerB] = await Promise.all([read(a, sharded, ids), read(b, single, idsB)]);
      expect(inOrder(JSON.parse(asFirst(JSON.stringify(answerB), fleetA, fleetB, sharded, single)))).toEqual(
        inOrder(answerA),
      );
      return answerA;
    };

    const metrics = JSON.parse((await same((store, orgId) => store.metricsJson(orgId, now))) as string);
    expect(metrics).toHaveLength(7);
    expect(metrics.every((entry: { todayGenerationWh: number }) => entry.todayGenerationWh === 960)).toBe(
      true,
    );
    const roster = { count: 0, inactiveIds: [] };
    const summary = (await same((store, orgId) => store.dashboardSummary(orgId, now, roster))) as {
      totals: { systemCount: number };
    };
    expect(summary.totals.systemCount).toBe(7);
    await same((store, orgId) =>
      store.systemsPage(orgId, now, { page: 1, pageSize: 50, q: "", sort: "system", direction: "asc" }),
    );
    await same((store, orgId) => store.fleetSeries(orgId, "Europe/Amsterdam", now));
    await same((store, orgId, systemIds) => store.liveValues(orgId, systemIds));
    await same((store, orgId) => store.monthlyEnergy(orgId, new Date(now).toISOString().slice(0, 7)));
    await same((store, orgId, systemIds) =>
      store.summedHourlyPower(orgId, systemIds, now - 7_200_000, now + 3_600_000),
    );
    const detection = (await same((store, orgId) =>
      store.detectionInput(orgId, null, now - 3_600_000, now),
    )) as {
      points: unknown[];
    }[];
    expect(detection.map((system) => system.points.length)).toEqual(Array(7).fill(12));
    await same((store, orgId, systemIds) => store.historyGaps(orgId, systemIds, { now, days: 2 }));
    // The site lists and losses add up sites whose systems several stores hold.
    const sites = (await same((store, orgId) =>
      store.sitesPage(orgId, now, { q: "", page: 1, pageSize: 50 }),
    )) as {
      items: { systemCount: number }[];
    };
    expect(sites.items.map((site) => site.systemCount).sort()).toEqual([3, 4]);
    await same((store, orgId) => store.siteCounts(orgId, now, { q: "" }));
    const yesterday = new Date(now - 86_400_000).toISOString().slice(0, 10);
    await seedLosses(sharded, fleetA, yesterday);
    await seedLosses(single, fleetB, yesterday);
    const losses = (await same((store, orgId) => store.lossesBySite(orgId, now, 30, []))) as {
      site_id: string;
      expected_wh: number;
    }[];
    expect(losses.find((row) => row.site_id === siteId(sharded, "spread"))?.expected_wh).toBe(
      20_000 * 3 + 9_000,
    );
    await same((store, orgId) => store.lossesByDate(orgId, null, yesterday, yesterday));
    // A system a shard holds, by its own id.
    const last = await same(async (store, orgId, systemIds) =>
      JSON.parse((await store.systemAnalytics(orgId, systemIds[6] as string, "7d", now)) ?? "null"),
    );
    expect(last).not.toBeNull();
    // A site stands for its first system by name wherever that is held: "spread"'s is the last
    // system ("Plant 0"), which the second shard holds, beside others of the site held here.
    const spread = (await same(async (store, orgId) =>
      JSON.parse((await store.systemAnalytics(orgId, siteId(orgId, "spread"), "7d", now)) ?? "null"),
    )) as { systemId: string };
    expect(spread.systemId).toBe(fleetA[6]?.id);
  });

  it("sends a store past 70 % of its bound no new system: the next one goes to a shard", async () => {
    const orgId = await insertOrg("Near Bound");
    const [first, second] = await fleetOf(orgId, 2);
    if (!first || !second) throw new Error("two systems expected");
    const store = storeOf(orgId);
    const now = Math.floor(Date.now() / STEP_MS) * STEP_MS;
    await store.storePage(orgId, {
      directory: [first.entry],
      points: [point(first, now, 500, 100)],
      messages: [],
    });
    expect((await store.storageStats(orgId)).stores).toHaveLength(1);
    // A bound the store is past: its next size check says so.
    await setStoreEnv(orgId, "FLEET_STORE_BOUND_BYTES", "1000");
    await store.storePage(orgId, {
      directory: [first.entry],
      points: [point(first, now + STEP_MS, 600, 150)],
      messages: [],
    });
    await store.storePage(orgId, {
      directory: [second.entry],
      points: [point(second, now + STEP_MS, 700, 90)],
      messages: [],
    });
    const stats = await store.storageStats(orgId);
    expect(stats.stores).toHaveLength(2);
    expect(stats.rows.systems).toBe(2);
    const live = await store.liveValues(orgId, [first.id, second.id]);
    expect(live.map((values) => [values.systemId, values.powerW]).sort()).toEqual(
      [
        [first.id, 600],
        [second.id, 700],
      ].sort(),
    );
  });

  it("keeps shards to their organisation: a shard refuses a call naming another, and no organisation reaches another's shards", async () => {
    const owner = await insertOrg("Owner Fleet");
    const other = await insertOrg("Other Fleet");
    const fleet = await fleetOf(owner, 2);
    const otherFleet = await fleetOf(other, 1);
    const now = Math.floor(Date.now() / STEP_MS) * STEP_MS;
    await setStoreEnv(owner, "FLEET_SHARD_SYSTEMS", "1");
    await storeHour(owner, fleet, now);
    await setStoreEnv(owner, "FLEET_SHARD_SYSTEMS", undefined);
    await storeHour(other, otherFleet, now);
    expect((await storeOf(owner).storageStats(owner)).stores).toHaveLength(2);
    expect(await refusal(() => shardStub(owner, 1).shardCall(other, 1, "storageStats", []))).toMatch(
      /belongs to another organisation/,
    );
    // Named by its organisation's id: the other organisation's shard 1 is another object, empty.
    expect(shardName(owner, 1)).not.toBe(shardName(other, 1));
    const others = await shardStub(other, 1).shardCall(other, 1, "storageStats", []);
    expect(others.rows.systems).toBe(0);
    // The other organisation's store knows none of the owner's systems.
    const otherStats = await storeOf(other).storageStats(other);
    expect(otherStats.stores).toHaveLength(1);
    expect(
      await storeOf(other).liveValues(
        other,
        fleet.map((system) => system.id),
      ),
    ).toEqual([]);
    // A shard never becomes an organisation's own store, nor changes its number.
    expect(await refusal(() => shardStub(owner, 1).shardCall(owner, 2, "storageStats", []))).toMatch(
      /is shard 1/,
    );
  });
});
