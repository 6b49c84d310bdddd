/*
 * SQL for where a system is: its site's place when it has a site, else its own. Every read that
 * counts local days or looks up irradiance uses these, so days and expectations agree across
 * the metrics, the fleet series and the sync's rollups. Aliases: ms = monitoring_systems, s = sites.
 */

/** The rounded location irradiance is stored under ("52.37,4.90"); engines/irradiance's locationKey in SQL. */
export const locationKeySql = (latitude: string, longitude: string) =>
  `printf('%.2f,%.2f', ${latitude}, ${longitude})`;

export const SYSTEM_WITH_SITE = "monitoring_systems ms LEFT JOIN sites s ON s.id = ms.site_id";
export const SYSTEM_LATITUDE = "coalesce(s.latitude, ms.latitude)";
export const SYSTEM_LONGITUDE = "coalesce(s.longitude, ms.longitude)";
export const SYSTEM_ZONE = "coalesce(s.timezone, ms.timezone, 'UTC')";
export const SYSTEM_LOCATION_KEY = `CASE WHEN ${SYSTEM_LATITUDE} IS NULL THEN NULL
  ELSE ${locationKeySql(SYSTEM_LATITUDE, SYSTEM_LONGITUDE)} END`;
