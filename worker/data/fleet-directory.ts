import { type SQLWrapper, sql } from "drizzle-orm";
import type { ProviderId } from "../../schema/api/providers";
import type { Nullable, SqlRow } from "../../schema/sql-row";
import type { dataVersions, inverters, monitoringSystems, sites } from "../../schema/tables";
import type { DirectoryEntry } from "../fleet/types";
import type { Db } from "../lib/db";
import {
  SYSTEM_LATITUDE,
  SYSTEM_LOCATION_KEY,
  SYSTEM_LONGITUDE,
  SYSTEM_WITH_SITE,
  SYSTEM_ZONE,
} from "./system-place";

/*
 * The metadata a fleet store mirrors from D1 (worker/fleet/store.ts): systems with their site,
 * place and zone, and their inverters. D1 owns it; the store re-reads it when D1's change
 * counter for the organisation moved past what it mirrors.
 */

type SystemColumns = SqlRow<typeof monitoringSystems>;
type SiteColumns = Nullable<SqlRow<typeof sites>>;

/** A row of SYSTEM_COLUMNS: the system, its site's (LEFT JOIN) and its place (system-place.ts). */
type DirectoryRow = Pick<SystemColumns, "id" | "provider" | "provider_system_id" | "name" | "capacity_w"> & {
  site_id: SiteColumns["id"];
  site_name: SiteColumns["name"];
  site_capacity_kw: SiteColumns["capacity_kw"];
  address: SystemColumns["address"];
  latitude: SystemColumns["latitude"];
  longitude: SystemColumns["longitude"];
  timezone: string;
  location_key: string | null;
};

type InverterDirectoryRow = Pick<
  SqlRow<typeof inverters>,
  "id" | "system_id" | "provider_inverter_id" | "serial"
>;
type Version = SqlRow<typeof dataVersions>["version"];

const SYSTEM_COLUMNS = `ms.id, ms.provider, ms.provider_system_id, ms.name, ms.capacity_w, s.id AS site_id,
  s.name AS site_name, s.capacity_kw AS site_capacity_kw, coalesce(s.location, s.address, ms.address) AS address,
  ${SYSTEM_LATITUDE} AS latitude, ${SYSTEM_LONGITUDE} AS longitude, ${SYSTEM_ZONE} AS timezone,
  ${SYSTEM_LOCATION_KEY} AS location_key`;

/**
 * Every system of the organisation, in the order they were made: the store's mirror numbers its
 * systems in this order, so it must not follow whichever index the planner picks (the sites' name
 * index gave a different order from one organisation to the next).
 */
export function allSystemsStatement(db: Db, orgId: string) {
  return db.$client
    .prepare(`SELECT ${SYSTEM_COLUMNS} FROM ${SYSTEM_WITH_SITE} WHERE ms.org_id = ? ORDER BY ms.rowid`)
    .bind(orgId);
}

export function allInvertersStatement(db: Db, orgId: string) {
  return db.$client
    .prepare(
      "SELECT id, system_id, provider_inverter_id, serial FROM inverters WHERE org_id = ? ORDER BY serial",
    )
    .bind(orgId);
}

/** A provider's systems with the given vendor ids (one sync page), for the same batch as its writes. */
export function pageSystemsStatement(
  db: Db,
  orgId: string,
  provider: ProviderId,
  providerSystemIds: string[],
) {
  return db.$client
    .prepare(
      `SELECT ${SYSTEM_COLUMNS} FROM ${SYSTEM_WITH_SITE}
       WHERE ms.org_id = ? AND ms.provider = ? AND ms.provider_system_id IN (SELECT value FROM json_each(?))`,
    )
    .bind(orgId, provider, JSON.stringify(providerSystemIds));
}

export function pageInvertersStatement(
  db: Db,
  orgId: string,
  provider: ProviderId,
  providerSystemIds: string[],
) {
  return db.$client
    .prepare(
      `SELECT i.id, i.system_id, i.provider_inverter_id, i.serial FROM inverters i JOIN monitoring_systems ms ON ms.id = i.system_id
       WHERE ms.org_id = ? AND ms.provider = ? AND ms.provider_system_id IN (SELECT value FROM json_each(?))
       ORDER BY i.serial`,
    )
    .bind(orgId, provider, JSON.stringify(providerSystemIds));
}

/** D1's change counter of the organisation's systems, inverters and sites (triggers of migration 0005). */
export function orgVersionStatement(db: Db, orgId: string) {
  return db.$client
    .prepare("SELECT coalesce((SELECT version FROM data_versions WHERE scope = ?), 0) AS version")
    .bind(`org:${orgId}`);
}

/** The counter in the batch result of orgVersionStatement. */
export const versionFrom = (result: D1Result<unknown> | undefined): number =>
  (result?.results?.[0] as { version: Version } | undefined)?.version ?? 0;

/** D1's counters a fleet store's read models are built against (see readVersions). */
export interface OrgVersions {
  org: Version;
  irradiance: Version;
  lists: Version;
  alerts: Version;
}

/**
 * The organisation's counter, the shared irradiance counter and the organisation's counters of
 * portfolio changes and of alert changes (what the site lists read besides), as columns of a
 * select, for the organisation `orgId` names (an id, or the column holding it): a signed-in
 * request reads them with its session, so the store it calls need not ask D1 for them again.
 */
export const orgVersionColumns = (orgId: SQLWrapper | string) => ({
  org: sql<Version>`coalesce((SELECT version FROM data_versions WHERE scope = 'org:' || ${orgId}), 0)`,
  irradiance: sql<Version>`coalesce((SELECT version FROM data_versions WHERE scope = 'irradiance'), 0)`,
  lists: sql<Version>`coalesce((SELECT version FROM data_versions WHERE scope = 'lists:' || ${orgId}), 0)`,
  alerts: sql<Version>`coalesce((SELECT version FROM data_versions WHERE scope = 'alerts:' || ${orgId}), 0)`,
});

/** The counters of orgVersionColumns, in one query. */
export async function readVersions(db: Db, orgId: string): Promise<OrgVersions> {
  const { org, irradiance, lists, alerts } = orgVersionColumns(orgId);
  const row = await db.get<OrgVersions>(
    sql`SELECT ${org} AS org, ${irradiance} AS irradiance, ${lists} AS lists, ${alerts} AS alerts`,
  );
  return {
    org: row?.org ?? 0,
    irradiance: row?.irradiance ?? 0,
    lists: row?.lists ?? 0,
    alerts: row?.alerts ?? 0,
  };
}

/** Directory entries from the rows of the statements above. */
export function toDirectory(
  systems: unknown[] | undefined,
  inverters: unknown[] | undefined,
): DirectoryEntry[] {
  const invertersBySystem = new Map<string, DirectoryEntry["inverters"]>();
  for (const row of (inverters ?? []) as InverterDirectoryRow[]) {
    const list = invertersBySystem.get(row.system_id) ?? [];
    list.push({ inverterId: row.id, providerInverterId: row.provider_inverter_id, serial: row.serial });
    invertersBySystem.set(row.system_id, list);
  }
  return ((systems ?? []) as DirectoryRow[]).map((r) => ({
    systemId: r.id,
    provider: r.provider,
    providerSystemId: r.provider_system_id,
    name: r.name,
    capacityW: r.capacity_w,
    siteId: r.site_id,
    siteName: r.site_name,
    siteCapacityKw: r.site_capacity_kw,
    address: r.address,
    latitude: r.latitude,
    longitude: r.longitude,
    timezone: r.timezone,
    locationKey: r.location_key,
    inverters: invertersBySystem.get(r.id) ?? [],
  }));
}

/** The organisation's whole directory and the counter it reflects, in one consistent D1 batch. */
export async function readFullDirectory(db: Db, orgId: string) {
  const [version, systems, inverters] = await db.$client.batch<unknown>([
    orgVersionStatement(db, orgId),
    allSystemsStatement(db, orgId),
    allInvertersStatement(db, orgId),
  ]);
  return {
    version: versionFrom(version),
    directory: toDirectory(systems?.results, inverters?.results),
  };
}
