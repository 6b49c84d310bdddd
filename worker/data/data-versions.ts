import type { Db } from "../lib/db";

/**
 * The change counters a fleet snapshot depends on (kept by triggers, migration 0005): the
 * organisation's systems, inverters and sites, and the shared irradiance. One short query.
 */
export async function readFleetVersion(db: Db, orgId: string): Promise<string> {
  const row = await db.$client
    .prepare(
      `SELECT (SELECT version FROM data_versions WHERE scope = ?) AS org,
         (SELECT version FROM data_versions WHERE scope = 'irradiance') AS irradiance`,
    )
    .bind(`org:${orgId}`)
    .first<{ org: number | null; irradiance: number | null }>();
  return `${row?.org ?? 0}:${row?.irradiance ?? 0}`;
}
