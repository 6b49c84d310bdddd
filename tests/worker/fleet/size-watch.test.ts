import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FleetStoreSizes } from "../../../schema/api/fleet-stores";
import type { Env } from "../../../worker/env";
import { createFleetDb } from "../../../worker/fleet/db";
import { checkStoreSize, SIZE_REPORT_INTERVAL_MS } from "../../../worker/fleet/size-watch";
import type { FleetStore } from "../../../worker/fleet/store";
import { createDb } from "../../../worker/lib/db";
import { storeOf } from "../fleet-helpers";
import { call, createSuperAdmin, expectStatus, registerOwner } from "../helpers";
import { insertSystem, point } from "./fleet-fixtures";

const STEP = 300_000;

/**
 * FLEET_STORE_BOUND_BYTES set in the store's own environment, as a deployment would set it (null
 * unsets it); answers the store's size.
 */
const setBound = (orgId: string, bytes: number | null) =>
  runInDurableObject(storeOf(orgId), (instance: FleetStore, state) => {
    const storeEnv = (instance as unknown as { env: Env }).env;
    if (bytes === null) delete storeEnv.FLEET_STORE_BOUND_BYTES;
    else storeEnv.FLEET_STORE_BOUND_BYTES = String(bytes);
    return state.storage.sql.databaseSize;
  });

/** The organisation's own store's (shard 0's) last report. */
const sizeRow = (orgId: string) =>
  env.DB.prepare(
    "SELECT bytes, bound_bytes, over_since FROM fleet_store_sizes WHERE org_id = ? AND shard = 0",
  )
    .bind(orgId)
    .first<{ bytes: number; bound_bytes: number; over_since: number | null }>();

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the size watch", () => {
  it("reports every store's size, and tells the platform operator when one passes 70 % of its bound: a log line and the superAdmin's list", async () => {
    const owner = await registerOwner("Growing Fleet");
    const system = await insertSystem(owner.orgId, { inverters: 2 });
    const store = storeOf(owner.orgId);
    await store.ensureDirectory(owner.orgId);
    const day = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000;
    let step = 0;
    /** An hour of points as one page through the store's page write. */
    const storeHour = async () => {
      const points = Array.from({ length: 12 }, (_, i) =>
        point(system, day + (step + i) * STEP, 1000 + i, i * 10),
      );
      step += 12;
      await store.storePage(owner.orgId, { directory: [], points, messages: [] });
    };
    // A bound the store is at 60 % of: below the threshold.
    const bound = Math.ceil((await setBound(owner.orgId, null)) / 0.6);
    await setBound(owner.orgId, bound);
    const warn = vi.spyOn(console, "warn");
    await storeHour();
    // Every store reports its size (the first page of the day did), below the threshold.
    const reported = await sizeRow(owner.orgId);
    expect(reported).toMatchObject({ bound_bytes: bound, over_since: null });
    expect(reported?.bytes).toBeGreaterThan(0);
    expect(warn).not.toHaveBeenCalled();

    // Its points grow it past 70 %: the page that does so reports it at once.
    let crossed = false;
    for (let hours = 0; hours < 2_000 && !crossed; hours++) {
      await storeHour();
      crossed = (await sizeRow(owner.orgId))?.over_since != null;
    }
    expect(crossed).toBe(true);
    const line = warn.mock.calls
      .map(([text]) => JSON.parse(String(text)) as Record<string, unknown>)
      .find((entry) => entry.msg === "fleet store near its bound");
    expect(line).toMatchObject({ orgId: owner.orgId, shard: 0, boundBytes: bound });
    expect(Number(line?.bytes)).toBeGreaterThanOrEqual(bound * 0.7);
    expect(warn.mock.calls).toHaveLength(1);

    const admin = await createSuperAdmin();
    const listed = await expectStatus<FleetStoreSizes>(
      await call("/api/admin/fleet-stores", { token: admin.token }),
      200,
    );
    expect(listed.threshold).toBe(0.7);
    const entry = listed.stores.find((s) => s.orgId === owner.orgId);
    expect(entry).toMatchObject({
      shard: 0,
      organizationName: "Growing Fleet",
      boundBytes: bound,
      nearBound: true,
    });
    expect(entry?.share).toBeGreaterThanOrEqual(0.7);
    expect(entry?.overSince).not.toBeNull();
    // Largest first.
    const sizes = listed.stores.map((s) => s.bytes);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));

    // The organisation's own owner does not see the platform's list.
    expect((await call("/api/admin/fleet-stores", { token: owner.token })).status).toBe(403);

    // More pages past the threshold do not log again until the day's report is due.
    await storeHour();
    expect(warn.mock.calls).toHaveLength(1);
    await setBound(owner.orgId, null);
  }, 600_000);

  it("keeps one report per organisation and shard: two shards are listed apart, and a shard's next report updates its own row", async () => {
    const owner = await registerOwner("Split Fleet");
    const bound = 1_000_000;
    const shardOne = env.FLEET_STORE.get(env.FLEET_STORE.idFromName(`${owner.orgId}/shard-1`));
    /** The size check run in `object` (whose meta keeps its last report) as the organisation's `shard`. */
    const check = (object: DurableObjectStub<FleetStore>, shard: number, bytes: number, now: number) =>
      runInDurableObject(object, (_instance: FleetStore, state) =>
        checkStoreSize(
          {
            db: createFleetDb(state.storage),
            d1: createDb(env.DB),
            env: { FLEET_STORE_BOUND_BYTES: String(bound) },
          },
          owner.orgId,
          shard,
          bytes,
          now,
        ),
      );
    const rows = () =>
      env.DB.prepare("SELECT shard, bytes, over_since FROM fleet_store_sizes WHERE org_id = ? ORDER BY shard")
        .bind(owner.orgId)
        .all<{ shard: number; bytes: number; over_since: number | null }>()
        .then((result) => result.results);
    const listed = async () => {
      const admin = await createSuperAdmin();
      const list = await expectStatus<FleetStoreSizes>(
        await call("/api/admin/fleet-stores", { token: admin.token }),
        200,
      );
      return list.stores.filter((s) => s.orgId === owner.orgId);
    };
    const warn = vi.spyOn(console, "warn");
    vi.spyOn(console, "log").mockImplementation(() => {});
    const now = Date.now();

    // Shard 0 below the threshold, shard 1 past it: each its own row, both listed, largest first.
    expect(await check(storeOf(owner.orgId), 0, 300_000, now)).toMatchObject({ over: false, reported: true });
    expect(await check(shardOne, 1, 800_000, now)).toMatchObject({ over: true, reported: true });
    expect(await rows()).toEqual([
      { shard: 0, bytes: 300_000, over_since: null },
      { shard: 1, bytes: 800_000, over_since: now },
    ]);
    const line = warn.mock.calls
      .map(([text]) => JSON.parse(String(text)) as Record<string, unknown>)
      .find((entry) => entry.msg === "fleet store near its bound");
    expect(line).toMatchObject({ orgId: owner.orgId, shard: 1, bytes: 800_000 });
    expect(await listed()).toEqual([
      expect.objectContaining({ shard: 1, organizationName: "Split Fleet", bytes: 800_000, nearBound: true }),
      expect.objectContaining({
        shard: 0,
        organizationName: "Split Fleet",
        bytes: 300_000,
        nearBound: false,
      }),
    ]);

    // Shard 0's next day's report updates its own row; shard 1's stays as it was.
    const later = now + SIZE_REPORT_INTERVAL_MS;
    expect(await check(storeOf(owner.orgId), 0, 900_000, later)).toMatchObject({
      over: true,
      reported: true,
    });
    expect(await rows()).toEqual([
      { shard: 0, bytes: 900_000, over_since: later },
      { shard: 1, bytes: 800_000, over_since: now },
    ]);
    expect(await listed()).toEqual([
      expect.objectContaining({ shard: 0, bytes: 900_000, nearBound: true }),
      expect.objectContaining({ shard: 1, bytes: 800_000, nearBound: true }),
    ]);
  });
});
