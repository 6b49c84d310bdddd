import { sql } from "drizzle-orm";
import type { FleetDb } from "../db";

/*
 * The shard tables (worker/fleet/shards.ts): in the organisation's own object, the store each
 * system was given (0 itself; systems held since before shards may be unlisted) and each shard's
 * last size; in a shard, the systems it holds.
 */

/** The organisation's shards, by number. */
export function shardNumbers(db: FleetDb): number[] {
  return db.all<{ shard: number }>(sql`SELECT shard FROM shards ORDER BY shard`).map((r) => r.shard);
}

/** Systems listed as held by a shard (not by the organisation's object, shard 0). */
export function countShardSystems(db: FleetDb): number {
  return db.get<{ n: number }>(sql`SELECT count(*) AS n FROM shard_systems WHERE shard > 0`)?.n ?? 0;
}

/** Systems the organisation's object holds: in its directory, or given to it and not written yet. */
export function countOwnSystems(db: FleetDb): number {
  return (
    db.get<{ n: number }>(sql`
      SELECT (SELECT count(*) FROM systems) + (SELECT count(*) FROM shard_systems m
        WHERE m.shard = 0 AND NOT EXISTS (SELECT 1 FROM systems s WHERE s.system_id = m.system_id)) AS n`)
      ?.n ?? 0
  );
}

/** Lists systems as held by `shard` (those listed already keep their shard). */
export function listShardSystems(db: FleetDb, entries: { id: string; shard: number }[]): void {
  if (entries.length === 0) return;
  db.run(sql`INSERT INTO shard_systems (system_id, shard)
    SELECT j.value ->> 'id', j.value ->> 'shard' FROM json_each(${JSON.stringify(entries)}) AS j WHERE true
    ON CONFLICT (system_id) DO NOTHING`);
}

/** Every system listed. */
export function shardSystemIds(db: FleetDb): Set<string> {
  return new Set(
    db.all<{ system_id: string }>(sql`SELECT system_id FROM shard_systems`).map((r) => r.system_id),
  );
}

/** The shard of each listed system a shard holds (shard 0, the organisation's object, left out). */
export function shardsOfSystems(db: FleetDb, systemIds: string[]): Map<string, number> {
  const rows = db.all<{ system_id: string; shard: number }>(sql`
    SELECT system_id, shard FROM shard_systems
    WHERE shard > 0 AND system_id IN (SELECT value FROM json_each(${JSON.stringify(systemIds)}))`);
  return new Map(rows.map((r) => [r.system_id, r.shard]));
}

/** The listed systems in neither this store's directory nor the shard list, in the given order. */
export function unseenSystems(db: FleetDb, systemIds: string[]): string[] {
  return db
    .all<{ id: string }>(sql`
      SELECT j.value AS id FROM json_each(${JSON.stringify(systemIds)}) AS j
      WHERE NOT EXISTS (SELECT 1 FROM systems s WHERE s.system_id = j.value)
        AND NOT EXISTS (SELECT 1 FROM shard_systems m WHERE m.system_id = j.value)
      ORDER BY j.key`)
    .map((r) => r.id);
}

/** Drops the listed systems not among `systemIds`. */
export function unlistSystemsBut(db: FleetDb, systemIds: string[]): void {
  db.run(sql`DELETE FROM shard_systems
    WHERE system_id NOT IN (SELECT value FROM json_each(${JSON.stringify(systemIds)}))`);
}

export function recordShardBytes(db: FleetDb, shard: number, bytes: number): void {
  db.run(sql`INSERT INTO shards (shard, bytes) VALUES (${shard}, ${bytes})
    ON CONFLICT (shard) DO UPDATE SET bytes = excluded.bytes`);
}

/** A shard's systems and last size (null: no such shard). */
export function shardFill(db: FleetDb, shard: number): { systems: number; bytes: number } | null {
  return (
    db.get<{ systems: number; bytes: number }>(sql`
      SELECT (SELECT count(*) FROM shard_systems WHERE shard = ${shard}) AS systems, bytes
      FROM shards WHERE shard = ${shard}`) ?? null
  );
}
