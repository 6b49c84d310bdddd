import { sql } from "drizzle-orm";
import { fleetInverters, type fleetMeta, fleetSystems } from "../../../schema/fleet-tables";
import type { SqlRow } from "../../../schema/sql-row";
import type { FleetDb } from "../db";
import type { DirectoryEntry } from "../types";

/*
 * The store's copy of D1's metadata. Systems and inverters get their small integer key here on
 * first sight; a re-read of the whole directory also removes what D1 no longer has (their
 * readings are then removed by the retention alarm, bounded per run).
 */

/** Entries written per statement: each statement's JSON stays far below SQLite's 2 MB value limit. */
const CHUNK = 1_000;

export function applyDirectory(db: FleetDb, entries: DirectoryEntry[]): void {
  for (let i = 0; i < entries.length; i += CHUNK) applyChunk(db, entries.slice(i, i + CHUNK));
}

function applyChunk(db: FleetDb, entries: DirectoryEntry[]): void {
  if (entries.length === 0) return;
  const systems = JSON.stringify(entries.map(({ inverters: _inverters, ...system }) => system));
  db.run(sql`
    INSERT INTO systems (system_id, provider, provider_system_id, name, capacity_w, site_id, site_name,
      site_capacity_kw, address, latitude, longitude, timezone, location_key)
    SELECT j.value ->> 'systemId', j.value ->> 'provider', j.value ->> 'providerSystemId', j.value ->> 'name',
      j.value ->> 'capacityW', j.value ->> 'siteId', j.value ->> 'siteName', j.value ->> 'siteCapacityKw',
      j.value ->> 'address', j.value ->> 'latitude', j.value ->> 'longitude', j.value ->> 'timezone',
      j.value ->> 'locationKey'
    FROM json_each(${systems}) AS j WHERE true
    ON CONFLICT (system_id) DO UPDATE SET provider = excluded.provider,
      provider_system_id = excluded.provider_system_id, name = excluded.name, capacity_w = excluded.capacity_w,
      site_id = excluded.site_id, site_name = excluded.site_name, site_capacity_kw = excluded.site_capacity_kw,
      address = excluded.address, latitude = excluded.latitude, longitude = excluded.longitude,
      timezone = excluded.timezone, location_key = excluded.location_key`);
  const inverters = entries.flatMap((e) =>
    e.inverters.map((inv) => ({ systemId: e.systemId, inverterId: inv.inverterId, serial: inv.serial })),
  );
  if (inverters.length === 0) return;
  db.run(sql`
    INSERT INTO inverters (inverter_id, sys, serial)
    SELECT j.value ->> 'inverterId', s.sys, j.value ->> 'serial'
    FROM json_each(${JSON.stringify(inverters)}) AS j CROSS JOIN systems s ON s.system_id = j.value ->> 'systemId'
    WHERE true
    ON CONFLICT (inverter_id) DO UPDATE SET sys = excluded.sys, serial = excluded.serial`);
}

/** Makes the directory exactly D1's: applies every entry and drops systems and inverters D1 no longer has. */
export function replaceDirectory(db: FleetDb, entries: DirectoryEntry[]): void {
  applyDirectory(db, entries);
  const systemIds = new Set(entries.map((e) => e.systemId));
  const inverterIds = new Set(entries.flatMap((e) => e.inverters.map((i) => i.inverterId)));
  const goneSystems = db
    .select({ id: fleetSystems.systemId })
    .from(fleetSystems)
    .all()
    .map((r) => r.id)
    .filter((id) => !systemIds.has(id));
  const goneInverters = db
    .select({ id: fleetInverters.inverterId })
    .from(fleetInverters)
    .all()
    .map((r) => r.id)
    .filter((id) => !inverterIds.has(id));
  for (let i = 0; i < goneSystems.length; i += CHUNK) {
    const ids = JSON.stringify(goneSystems.slice(i, i + CHUNK));
    db.run(sql`DELETE FROM systems WHERE system_id IN (SELECT value FROM json_each(${ids}))`);
  }
  for (let i = 0; i < goneInverters.length; i += CHUNK) {
    const ids = JSON.stringify(goneInverters.slice(i, i + CHUNK));
    db.run(sql`DELETE FROM inverters WHERE inverter_id IN (SELECT value FROM json_each(${ids}))`);
  }
}

/** One value of the store's `meta` table (read on every call: a plain statement, not the query builder's). */
export function readMeta(db: FleetDb, key: string): string | null {
  return (
    db.get<Pick<SqlRow<typeof fleetMeta>, "value">>(sql`SELECT value FROM meta WHERE key = ${key}`)?.value ??
    null
  );
}

export function writeMeta(db: FleetDb, key: string, value: string): void {
  db.run(sql`INSERT INTO meta (key, value) VALUES (${key}, ${value})
    ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
}

export function countSystems(db: FleetDb): number {
  return db.get<{ n: number }>(sql`SELECT count(*) AS n FROM systems`)?.n ?? 0;
}

export function deleteMeta(db: FleetDb, key: string): void {
  db.run(sql`DELETE FROM meta WHERE key = ${key}`);
}

/** Whether the directory holds any system (one index probe, whatever the fleet's size). */
export function hasSystems(db: FleetDb): boolean {
  return db.get<{ found: number }>(sql`SELECT EXISTS (SELECT 1 FROM systems) AS found`)?.found === 1;
}
