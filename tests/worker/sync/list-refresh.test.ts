import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import { simulatedPlants } from "../../../sandbox/simulation";
import { createDb } from "../../../worker/lib/db";
import { localBudget } from "../../../worker/providers/budget";
import { froniusAdapter } from "../../../worker/providers/fronius";
import { LISTS_REFRESH_MS, SYNC_INTERVAL_MS } from "../../../worker/sync/schedule";
import { syncConnection } from "../../../worker/sync/sync-connection";
import type { SyncDeps } from "../../../worker/sync/types";
import { storedPoints, storeLiveRows } from "../fleet-helpers";
import { registerOwner, type TestUser } from "../helpers";
import { storeConnection } from "./connection-fixtures";

const account = sandboxAccounts.fronius[0];
const plants = simulatedPlants("fronius", account.accessKeyId, account.plants);
/** 10:00 UTC, on a 5-minute boundary: daylight at the sandbox's European plants. */
const T0 = Date.UTC(2026, 5, 15, 10, 0);

/** A Fronius connection on a driven clock, with every vendor call's path recorded. */
async function froniusHarness(owner: TestUser, msPerCall = 0) {
  const clock = { now: T0 };
  const sandbox = createSandbox({ now: () => clock.now });
  const calls: string[] = [];
  const db = createDb(env.DB);
  const connectionId = await storeConnection(
    owner.orgId,
    "fronius",
    { accessKeyId: account.accessKeyId, accessKeyValue: account.accessKeyValue },
    clock.now,
  );
  const deps: SyncDeps = {
    db,
    env,
    now: () => clock.now,
    fetch: async (request) => {
      calls.push(new URL(request.url).pathname);
      // A slow vendor: each answer takes this long on the driven clock.
      clock.now += msPerCall;
      return sandbox.fetch(request);
    },
    // Spacing and retries pass at once on the driven clock.
    sleep: async () => {},
    budget: localBudget(froniusAdapter.callPlan(account)),
  };
  /** One run to its end at the clock's time; answers the vendor paths it called. */
  const sync = async (trigger: "cron" | "manual") => {
    calls.length = 0;
    const result = await syncConnection(deps, connectionId, trigger);
    expect(result.status).toBe("success");
    return [...calls];
  };
  return { clock, sync, connectionId, calls };
}

const listCalls = (calls: string[]) =>
  calls.filter((path) => path === "/fronius/pvsystems" || path.endsWith("/devices"));
const flowCalls = (calls: string[]) => calls.filter((path) => path.endsWith("/flowdata"));

/** Each stored plant's live data time (its newest point's). */
const storedDataTimes = async (orgId: string) =>
  (await storeLiveRows(orgId)).systems.map((s) => ({ id: s.provider_system_id, dataTime: s.data_time }));

/** The inverters' entries in each plant's newest point (its inverters' live values), with their own times. */
const newestInverterTimes = async (orgId: string) => {
  const newest = new Map<number, Awaited<ReturnType<typeof storedPoints>>[number]>();
  for (const point of await storedPoints(orgId)) newest.set(point.sys, point);
  return [...newest.values()].flatMap((point) => point.inverters.map((inverter) => inverter.t));
};

describe("plant and device lists, read daily", () => {
  it("reads the lists on a connection's first run and only live values on the steady cycle after it", async () => {
    const owner = await registerOwner();
    const { clock, sync } = await froniusHarness(owner);
    const first = await sync("cron");
    expect(listCalls(first)).toHaveLength(1 + plants.length);
    expect(flowCalls(first)).toHaveLength(plants.length);

    clock.now += SYNC_INTERVAL_MS;
    const steady = await sync("cron");
    expect(listCalls(steady)).toEqual([]);
    // Every stored plant's live values, and nothing else than live calls.
    expect(flowCalls(steady)).toHaveLength(plants.length);
    expect(steady.every((path) => /\/(flowdata|aggrdata|messages)$/.test(path))).toBe(true);
    // The steady cycle stored new values for every plant, and no plant twice.
    const times = await storedDataTimes(owner.orgId);
    expect(times).toHaveLength(plants.length);
    expect(new Set(times.map((row) => row.id)).size).toBe(plants.length);
    expect(times.every((row) => row.dataTime === clock.now)).toBe(true);
    const inverterTimes = await newestInverterTimes(owner.orgId);
    expect(inverterTimes.filter((t) => t === Math.floor(clock.now / 1000))).toHaveLength(
      plants.reduce((n, plant) => n + plant.inverters.length, 0),
    );
  });

  it("reads the lists again once the last read is a day old", async () => {
    const owner = await registerOwner();
    const { clock, sync } = await froniusHarness(owner);
    await sync("cron");
    clock.now += LISTS_REFRESH_MS - SYNC_INTERVAL_MS;
    expect(listCalls(await sync("cron"))).toEqual([]);
    clock.now += SYNC_INTERVAL_MS;
    expect(listCalls(await sync("cron"))).toHaveLength(1 + plants.length);
    // The day starts again from that read.
    clock.now += SYNC_INTERVAL_MS;
    expect(listCalls(await sync("cron"))).toEqual([]);
  });

  it("moves the organisation's counter only when a re-read of the lists changes a plant", async () => {
    const owner = await registerOwner();
    const { clock, sync, connectionId } = await froniusHarness(owner);
    const orgVersion = () =>
      env.DB.prepare("SELECT version FROM data_versions WHERE scope = ?")
        .bind(`org:${owner.orgId}`)
        .first<number>("version");
    await sync("cron");
    const listed = await orgVersion();
    expect(listed).toBeGreaterThan(0);
    // The lists are read again and every plant marked as listed: nothing a read model shows moved.
    clock.now += LISTS_REFRESH_MS;
    expect(listCalls(await sync("cron"))).toHaveLength(1 + plants.length);
    const listedAt = await env.DB.prepare(
      "SELECT min(listed_at) AS at FROM monitoring_systems WHERE connection_id = ?",
    )
      .bind(connectionId)
      .first<number>("at");
    expect(listedAt).toBe(clock.now);
    expect(await orgVersion()).toBe(listed);
    // A plant renamed by a member does move it.
    await env.DB.prepare("UPDATE monitoring_systems SET name = 'Renamed' WHERE connection_id = ?")
      .bind(connectionId)
      .run();
    expect(await orgVersion()).toBeGreaterThan(listed ?? 0);
  });

  it("reads the lists on a user's sync", async () => {
    const owner = await registerOwner();
    const { clock, sync } = await froniusHarness(owner);
    await sync("cron");
    clock.now += SYNC_INTERVAL_MS;
    expect(listCalls(await sync("manual"))).toHaveLength(1 + plants.length);
  });

  it("reads the lists when the vendor no longer knows a stored plant, and leaves that plant out after", async () => {
    const owner = await registerOwner();
    const { clock, sync, connectionId } = await froniusHarness(owner);
    await sync("cron");
    // A plant the last read listed, which Solar.web has since removed from the account.
    const goneId = "00000000-0000-4000-8000-00000000dead";
    await env.DB.prepare(
      `INSERT INTO monitoring_systems (id, org_id, connection_id, provider, provider_system_id, name, state,
        listed_at, created_at, updated_at) VALUES (?, ?, ?, 'fronius', ?, 'Removed plant', 'online', ?, ?, ?)`,
    )
      .bind(crypto.randomUUID(), owner.orgId, connectionId, goneId, T0, T0, T0)
      .run();

    clock.now += SYNC_INTERVAL_MS;
    const steady = await sync("cron");
    expect(steady).toContain(`/fronius/pvsystems/${goneId}/flowdata`);
    expect(listCalls(steady)).toHaveLength(1 + plants.length);
    const times = await storedDataTimes(owner.orgId);
    expect(times.filter((row) => row.id !== goneId).every((row) => row.dataTime === clock.now)).toBe(true);

    clock.now += SYNC_INTERVAL_MS;
    const next = await sync("cron");
    expect(listCalls(next)).toEqual([]);
    expect(next.some((path) => path.includes(goneId))).toBe(false);
    expect(flowCalls(next)).toHaveLength(plants.length);
  });
});

describe("cadence", () => {
  const nextSyncAt = (connectionId: string) =>
    env.DB.prepare("SELECT next_sync_at AS at FROM provider_connections WHERE id = ?")
      .bind(connectionId)
      .first<{ at: number }>()
      .then((row) => row?.at);

  it("starts the next cycle 5 minutes after the start of a run that fits them", async () => {
    const owner = await registerOwner();
    const { clock, sync, connectionId } = await froniusHarness(owner, 1000);
    const startedAt = clock.now;
    await sync("cron");
    expect(clock.now).toBeGreaterThan(startedAt);
    expect(await nextSyncAt(connectionId)).toBe(startedAt + SYNC_INTERVAL_MS);
  });

  it("lengthens the cycle of a run the vendor's limit keeps past 5 minutes to whole 5-minute ticks", async () => {
    const owner = await registerOwner();
    // The first run's 13 calls at 30 s each: 6.5 minutes, 7.15 with headroom, a 10-minute cycle.
    const { clock, sync, connectionId } = await froniusHarness(owner, 30_000);
    const startedAt = clock.now;
    const calls = await sync("cron");
    expect(calls).toHaveLength(1 + 4 * plants.length);
    expect(await nextSyncAt(connectionId)).toBe(startedAt + 2 * SYNC_INTERVAL_MS);
  });
});
