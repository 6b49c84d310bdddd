import { lt, sql } from "drizzle-orm";
import type { SqlRow } from "../../schema/sql-row";
import { geocodeCache, type outboundSlots } from "../../schema/tables";
import type { Db } from "../lib/db";

/*
 * Address lookups are public geodata, not an organisation's: the cache and the call slots are
 * shared by every organisation and hold no tenant data, so these queries take no org id.
 */

export async function readGeocodeCache(
  db: Db,
  queryKey: string,
  now: number,
): Promise<unknown[] | undefined> {
  const row = await db.query.geocodeCache.findFirst({
    where: sql`${geocodeCache.queryKey} = ${queryKey} AND ${geocodeCache.expiresAt} > ${now}`,
  });
  return row?.results;
}

export const writeGeocodeCache = (db: Db, queryKey: string, results: unknown[], now: number, ttlMs: number) =>
  db
    .insert(geocodeCache)
    .values({ queryKey, results, fetchedAt: now, expiresAt: now + ttlMs })
    .onConflictDoUpdate({
      target: geocodeCache.queryKey,
      set: { results, fetchedAt: now, expiresAt: now + ttlMs },
    });

/** Drops a bounded number of expired entries; batched with each write so the table stays small. */
export const sweepGeocodeCache = (db: Db, now: number, limit = 50) =>
  db
    .delete(geocodeCache)
    .where(
      sql`${geocodeCache.queryKey} IN (SELECT query_key FROM geocode_cache WHERE ${lt(geocodeCache.expiresAt, now)} LIMIT ${limit})`,
    );

/**
 * Reserves the next call slot of a rate-limited service for every isolate at once: one atomic
 * upsert moves the service's next free time on by `intervalMs` and answers the slot taken.
 * Refuses (null) when the queue already reaches further than `maxWaitMs` ahead.
 */
export async function reserveCallSlot(
  db: Db,
  service: string,
  now: number,
  intervalMs: number,
  maxWaitMs: number,
): Promise<number | null> {
  const row = await db.$client
    .prepare(
      `INSERT INTO outbound_slots (service, next_at) VALUES (?1, ?2 + ?3)
       ON CONFLICT (service) DO UPDATE SET next_at = max(next_at, ?2) + ?3
       WHERE max(next_at, ?2) <= ?2 + ?4
       RETURNING next_at`,
    )
    .bind(service, now, intervalMs, maxWaitMs)
    .first<Pick<SqlRow<typeof outboundSlots>, "next_at">>();
  return row ? row.next_at - intervalMs : null;
}
