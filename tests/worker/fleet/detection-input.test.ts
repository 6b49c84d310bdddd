import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readDetectionInput, readFleetDetectionInput } from "../../../worker/fleet/data/detection";
import { createFleetDb } from "../../../worker/fleet/db";
import type { FleetStore } from "../../../worker/fleet/store";
import { storeOf } from "../fleet-helpers";
import { insertOrg, insertSystemsInBulk, point, storePoints } from "./fleet-fixtures";

const SYSTEMS = 2_345;
const MIN = 60_000;

describe("the whole fleet's detection input, read a slice of keys at a time", () => {
  it("reads every system once with its points, past the first slices as in them", async () => {
    const now = Date.now();
    const orgId = await insertOrg("Detection Slices");
    await insertSystemsInBulk(orgId, SYSTEMS, now);
    // Points for systems either side of the slices' edges (200 keys a slice) and in the last one.
    const withPoints = [1, 200, 201, 999, 1_000, 1_001, 2_001, SYSTEMS].map((i) => `${orgId}-${i}`);
    await storePoints(
      orgId,
      withPoints.flatMap((id, n) => [
        point({ id, inverterIds: [] }, now - 20 * MIN, 1_000 + n, 100),
        point({ id, inverterIds: [] }, now - 10 * MIN, 2_000 + n, 200),
      ]),
    );
    const { sliced, whole } = await runInDurableObject(storeOf(orgId), async (_store: FleetStore, state) => {
      const db = createFleetDb(state.storage);
      const ids = Array.from({ length: SYSTEMS }, (_, i) => `${orgId}-${i + 1}`);
      return {
        sliced: await readFleetDetectionInput(db, now - 60 * MIN, now),
        whole: readDetectionInput(db, ids, now - 60 * MIN, now),
      };
    });
    expect(sliced).toHaveLength(SYSTEMS);
    expect(new Set(sliced.map((s) => s.systemId)).size).toBe(SYSTEMS);
    const byId = (list: typeof sliced) =>
      [...list].sort((a, b) => (a.systemId < b.systemId ? -1 : a.systemId > b.systemId ? 1 : 0));
    expect(byId(sliced)).toEqual(byId(whole));
    const last = sliced.find((s) => s.systemId === `${orgId}-${SYSTEMS}`);
    expect(last?.points.map(([, powerW]) => powerW)).toEqual([1_007, 2_007]);
    expect(
      sliced
        .filter((s) => s.points.length === 2)
        .map((s) => s.systemId)
        .sort(),
    ).toEqual([...withPoints].sort());
  });
});
