import { and, eq, type SQL, sql } from "drizzle-orm";
import { monitoringSystems } from "../../schema/tables";
import type { Db } from "../lib/db";

/**
 * The sum of a system's inverters' rated AC power in W when every one of them has a rating; null
 * otherwise (no inverters, or one without a rating). Qualified by hand: drizzle drops table
 * prefixes in single-table selects.
 */
export const invertersRatedW = sql<number | null>`(
  SELECT CASE WHEN count(*) > 0 AND count(*) = count(i.rated_power_w) THEN sum(i.rated_power_w) END
  FROM inverters i WHERE i.system_id = monitoring_systems.id)`;

export interface OrientationUpdate {
  tiltDeg?: number | null;
  azimuthDeg?: number | null;
  acLimitKw?: number | null;
}

/** Sets a system's orientation values (only the given ones); no row changes for another organisation's id. */
export const updateSystemOrientation = (
  db: Db,
  orgId: string,
  systemId: string,
  values: OrientationUpdate,
  now: number,
) =>
  db
    .update(monitoringSystems)
    .set({ ...values, updatedAt: now })
    .where(and(eq(monitoringSystems.orgId, orgId), eq(monitoringSystems.id, systemId)));

/**
 * What the effective orientation of systems is worked out from (worker/domain/solar/orientation.ts):
 * each system's own values and place, its site's values and system count, and its inverters'
 * ratings; every system of the organisation, or the given one.
 */
export async function listOrientationInputs(db: Db, orgId: string, systemId?: string) {
  // One system's read stays that system's (and its site's) rows.
  const one = (condition: SQL) => (systemId === undefined ? sql`` : condition);
  const rows = await db.all<{
    id: string;
    site_id: string | null;
    tilt_deg: number | null;
    azimuth_deg: number | null;
    ac_limit_kw: number | null;
    latitude: number | null;
    inverters_rated_w: number | null;
    site_tilt_deg: number | null;
    site_azimuth_deg: number | null;
    site_ac_limit_kw: number | null;
    site_latitude: number | null;
    site_system_count: number | null;
  }>(sql`
    WITH rated AS (
      SELECT system_id,
        CASE WHEN count(*) = count(rated_power_w) THEN sum(rated_power_w) END AS rated_w
      FROM inverters WHERE org_id = ${orgId} ${one(sql`AND system_id = ${systemId}`)} GROUP BY system_id
    ), site_sizes AS (
      SELECT site_id, count(*) AS systems FROM monitoring_systems
      WHERE org_id = ${orgId} AND site_id IS NOT NULL
        ${one(sql`AND site_id = (SELECT site_id FROM monitoring_systems WHERE org_id = ${orgId} AND id = ${systemId})`)}
      GROUP BY site_id
    )
    SELECT s.id, s.site_id, s.tilt_deg, s.azimuth_deg, s.ac_limit_kw, s.latitude,
      rated.rated_w AS inverters_rated_w,
      site.tilt_deg AS site_tilt_deg, site.azimuth_deg AS site_azimuth_deg,
      site.ac_limit_kw AS site_ac_limit_kw, site.latitude AS site_latitude,
      site_sizes.systems AS site_system_count
    FROM monitoring_systems s
    LEFT JOIN sites site ON site.id = s.site_id AND site.org_id = s.org_id
    LEFT JOIN site_sizes ON site_sizes.site_id = s.site_id
    LEFT JOIN rated ON rated.system_id = s.id
    WHERE s.org_id = ${orgId} ${one(sql`AND s.id = ${systemId}`)}`);
  return rows.map((row) => ({
    systemId: row.id,
    siteId: row.site_id,
    input: {
      system: {
        tiltDeg: row.tilt_deg,
        azimuthDeg: row.azimuth_deg,
        acLimitKw: row.ac_limit_kw,
        latitude: row.latitude,
      },
      site:
        row.site_id !== null && row.site_latitude !== null
          ? {
              tiltDeg: row.site_tilt_deg,
              azimuthDeg: row.site_azimuth_deg,
              acLimitKw: row.site_ac_limit_kw,
              latitude: row.site_latitude,
              systemCount: row.site_system_count ?? 0,
            }
          : null,
      invertersRatedW: row.inverters_rated_w,
    },
  }));
}
