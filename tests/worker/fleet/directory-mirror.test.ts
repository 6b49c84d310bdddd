import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { systemsPageQuerySchema } from "../../../schema/api/dashboard";
import { type OrgVersions, readVersions } from "../../../worker/data/fleet-directory";
import type { FleetDb } from "../../../worker/fleet/db";
import { DirectoryMirror } from "../../../worker/fleet/directory-mirror";
import type { FleetStore } from "../../../worker/fleet/store";
import { createDb } from "../../../worker/lib/db";
import { storeOf } from "../fleet-helpers";
import { insertOrg, insertSystem, point, storePoints } from "./fleet-fixtures";

/** The D1 binding with every statement it is asked to prepare written down. */
function countingD1() {
  const asked: string[] = [];
  const db = new Proxy(env.DB, {
    get(target, property) {
      if (property === "prepare") {
        return (query: string) => {
          asked.push(query);
          return target.prepare(query);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, asked };
}

const versionsOf = (orgId: string) => readVersions(createDb(env.DB), orgId);

describe("the fleet store's mirror of D1", () => {
  it("takes a signed-in caller's counters without asking D1 again, and asks D1 for a caller without them", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId);
    await storePoints(orgId, [point(system, Date.now() - 60_000, 100, 100)]);
    const seen = await versionsOf(orgId);
    const { db, asked } = countingD1();
    const answered = await runInDurableObject(storeOf(orgId), async (instance: FleetStore, state) => {
      const fleetDb = (instance as unknown as { db: FleetDb }).db;
      const mirror = new DirectoryMirror(
        fleetDb,
        state.storage,
        { ...env, DB: db },
        async () => {},
        async (entries) => entries,
      );
      const withSeen = await mirror.current(orgId, seen);
      const askedWithSeen = asked.length;
      const read = await mirror.current(orgId);
      return { withSeen, askedWithSeen, read };
    });
    expect(answered.askedWithSeen).toBe(0);
    expect(asked).toHaveLength(1);
    expect(answered.withSeen).toMatchObject(seen);
    expect(answered.read).toMatchObject(seen);
  });

  it("reads D1's directory again when a caller's counter is past the mirror, and shows the change", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId);
    const now = Date.now();
    await storePoints(orgId, [point(system, now - 60_000, 100, 100)]);
    const names = async (seen: OrgVersions, at: number) =>
      (await storeOf(orgId).systemsPage(orgId, at, systemsPageQuerySchema.parse({}), seen)).items.map(
        (item) => item.stationName,
      );
    expect(await names(await versionsOf(orgId), now)).not.toContain("Renamed");
    await env.DB.prepare("UPDATE monitoring_systems SET name = 'Renamed' WHERE id = ?").bind(system.id).run();
    expect(await names(await versionsOf(orgId), now + 1)).toEqual(["Renamed"]);
  });

  it("keeps its read model for a caller whose counters are older than another's (its request began earlier)", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId);
    const now = Date.now();
    await storePoints(orgId, [point(system, now - 60_000, 100, 100)]);
    const before = await versionsOf(orgId);
    await env.DB.prepare("UPDATE monitoring_systems SET name = 'Renamed' WHERE id = ?").bind(system.id).run();
    const after = await versionsOf(orgId);
    expect(after.org).toBeGreaterThan(before.org);
    const store = storeOf(orgId);
    const newer = await store.metricsAnswer(orgId, now, 1, null, after);
    const older = await store.metricsAnswer(orgId, now, 1, null, before);
    expect(older.key).toBe(newer.key);
    expect(older.gzip).not.toBeNull();
  });
});
