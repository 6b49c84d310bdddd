import type { OrientationInput } from "../domain/solar/orientation";
import type { Db } from "../lib/db";
import { SYSTEM_LATITUDE, SYSTEM_LOCATION_KEY, SYSTEM_LONGITUDE, SYSTEM_WITH_SITE } from "./system-place";

/** What the expected-power model needs of D1 for one system: its capacity, place and orientation inputs. */
export interface ModelInputRow {
  systemId: string;
  siteId: string | null;
  capacityW: number | null;
  latitude: number | null;
  longitude: number | null;
  locationKey: string | null;
  orientation: OrientationInput;
}

/**
 * The listed systems of an organisation (every one when `systemIds` is null) as the model reads
 * them: capacity, the place their weather is read at (the site's, else their own), and what their
 * effective tilt, azimuth and AC limit are worked out from (worker/domain/solar/orientation.ts).
 */
export async function listModelInputs(
  db: Db,
  orgId: string,
  systemIds: string[] | null,
): Promise<ModelInputRow[]> {
  const listed = systemIds === null ? "" : "AND ms.id IN (SELECT value FROM json_each(?2))";
  const statement = db.$client.prepare(
    `WITH rated AS (
       SELECT system_id, CASE WHEN count(*) = count(rated_power_w) THEN sum(rated_power_w) END AS rated_w
       FROM inverters WHERE org_id = ?1 GROUP BY system_id
     ), site_sizes AS (
       SELECT site_id, count(*) AS systems FROM monitoring_systems
       WHERE org_id = ?1 AND site_id IS NOT NULL GROUP BY site_id
     )
     SELECT ms.id, ms.site_id, ms.capacity_w, ms.tilt_deg, ms.azimuth_deg, ms.ac_limit_kw,
       ms.latitude AS own_latitude, ${SYSTEM_LATITUDE} AS latitude, ${SYSTEM_LONGITUDE} AS longitude,
       ${SYSTEM_LOCATION_KEY} AS location_key, rated.rated_w,
       s.tilt_deg AS site_tilt_deg, s.azimuth_deg AS site_azimuth_deg, s.ac_limit_kw AS site_ac_limit_kw,
       s.latitude AS site_latitude, site_sizes.systems AS site_systems
     FROM ${SYSTEM_WITH_SITE}
     LEFT JOIN site_sizes ON site_sizes.site_id = ms.site_id
     LEFT JOIN rated ON rated.system_id = ms.id
     WHERE ms.org_id = ?1 ${listed}`,
  );
  const bound = systemIds === null ? statement.bind(orgId) : statement.bind(orgId, JSON.stringify(systemIds));
  const rows = await bound.all<{
    id: string;
    site_id: string | null;
    capacity_w: number | null;
    tilt_deg: number | null;
    azimuth_deg: number | null;
    ac_limit_kw: number | null;
    own_latitude: number | null;
    latitude: number | null;
    longitude: number | null;
    location_key: string | null;
    rated_w: number | null;
    site_tilt_deg: number | null;
    site_azimuth_deg: number | null;
    site_ac_limit_kw: number | null;
    site_latitude: number | null;
    site_systems: number | null;
  }>();
  return rows.results.map((row) => ({
    systemId: row.id,
    siteId: row.site_id,
    capacityW: row.capacity_w,
    latitude: row.latitude,
    longitude: row.longitude,
    locationKey: row.location_key,
    orientation: {
      system: {
        tiltDeg: row.tilt_deg,
        azimuthDeg: row.azimuth_deg,
        acLimitKw: row.ac_limit_kw,
        latitude: row.own_latitude,
      },
      site:
        row.site_id !== null && row.site_latitude !== null
          ? {
              tiltDeg: row.site_tilt_deg,
              azimuthDeg: row.site_azimuth_deg,
              acLimitKw: row.site_ac_limit_kw,
              latitude: row.site_latitude,
              systemCount: row.site_systems ?? 0,
            }
          : null,
      invertersRatedW: row.rated_w,
    },
  }));
}
