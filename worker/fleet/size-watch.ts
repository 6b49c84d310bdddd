import { DEFAULT_FLEET_STORE_BOUND_BYTES, FLEET_STORE_WARNING_SHARE } from "../../schema/api/fleet-stores";
import { recordStoreSize } from "../data/fleet-store-sizes";
import type { Env } from "../env";
import { createDb, type Db } from "../lib/db";
import { readMeta, writeMeta } from "./data/directory";
import type { FleetDb } from "./db";
import { ownerOf } from "./owner";

/*
 * A fleet store watches its own size against what one store may hold: it reports to D1 at least
 * daily, and at once when it passes 70 % of its bound (or falls back below it), with a structured
 * log line the platform's log search finds (`fleet store near its bound`). The superAdmin lists
 * the reports (GET /api/admin/fleet-stores).
 */

const META_REPORTED_AT = "size_reported_at";
const META_OVER = "size_over";
/** A store reports its size at least this often. */
export const SIZE_REPORT_INTERVAL_MS = 24 * 3_600_000;

/** The bytes one store may hold: FLEET_STORE_BOUND_BYTES when set to a positive number, else 10 GB. */
export function storeBoundBytes(env: Pick<Env, "FLEET_STORE_BOUND_BYTES">): number {
  const bound = Number(env.FLEET_STORE_BOUND_BYTES ?? DEFAULT_FLEET_STORE_BOUND_BYTES);
  return Number.isFinite(bound) && bound > 0 ? bound : DEFAULT_FLEET_STORE_BOUND_BYTES;
}

export interface SizeCheck {
  bytes: number;
  boundBytes: number;
  over: boolean;
  /** Whether this check reported (to D1, and in the log when over). */
  reported: boolean;
}

/**
 * Compares the store's size (`bytes`, SQLite's databaseSize) with its bound at `now`, and reports
 * it as the organisation's `shard` (0 its own object, 1.. its shards, each with its own row) when
 * a day has passed since the last report or it crossed 70 % of the bound either way.
 * A failed report is logged and tried again at the next check.
 */
export async function checkStoreSize(
  deps: { db: FleetDb; d1: Db; env: Pick<Env, "FLEET_STORE_BOUND_BYTES"> },
  orgId: string,
  shard: number,
  bytes: number,
  now: number,
): Promise<SizeCheck> {
  const boundBytes = storeBoundBytes(deps.env);
  const over = bytes >= boundBytes * FLEET_STORE_WARNING_SHARE;
  const wasOver = readMeta(deps.db, META_OVER) === "1";
  const reportedAt = Number(readMeta(deps.db, META_REPORTED_AT) ?? 0);
  if (over === wasOver && now - reportedAt < SIZE_REPORT_INTERVAL_MS) {
    return { bytes, boundBytes, over, reported: false };
  }
  const line = { orgId, shard, bytes, boundBytes, share: Math.round((bytes / boundBytes) * 1000) / 1000 };
  if (over) console.warn(JSON.stringify({ msg: "fleet store near its bound", ...line }));
  else console.log(JSON.stringify({ msg: "fleet store size", ...line }));
  try {
    await recordStoreSize(deps.d1, { orgId, shard, bytes, boundBytes, over, at: now });
  } catch (error) {
    console.error(
      JSON.stringify({ msg: "fleet store size report failed", orgId, shard, error: String(error) }),
    );
    return { bytes, boundBytes, over, reported: false };
  }
  writeMeta(deps.db, META_REPORTED_AT, String(now));
  writeMeta(deps.db, META_OVER, over ? "1" : "0");
  return { bytes, boundBytes, over, reported: true };
}

/** Whether the store's last size check found it at or past 70 % of its bound. */
export function nearBound(db: FleetDb): boolean {
  return readMeta(db, META_OVER) === "1";
}

/** The store's own size watch: its database's size checked after each write and in its daily retention. */
export class SizeWatch {
  constructor(
    private readonly parts: {
      db: FleetDb;
      storage: DurableObjectStorage;
      env: Env;
      /** The object's shard number, asked at each check: the object learns it at its first call. */
      shard: () => number;
    },
  ) {}

  /** Checks the store's size at `now` (reported when due, see checkStoreSize); nothing before the store has an owner. */
  async check(now = Date.now()): Promise<SizeCheck | null> {
    const { db, storage, env, shard } = this.parts;
    const orgId = ownerOf(db);
    if (orgId === null) return null;
    return checkStoreSize({ db, d1: createDb(env.DB), env }, orgId, shard(), storage.sql.databaseSize, now);
  }
}
