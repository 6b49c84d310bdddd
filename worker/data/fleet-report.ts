import type { SqlRow } from "../../schema/sql-row";
import type { monitoringSystems, sites } from "../../schema/tables";
import type { Db } from "../lib/db";
import { SYSTEM_LOCATION_KEY, SYSTEM_WITH_SITE } from "./system-place";

/** The organisation's systems on sites, with where their irradiance is stored. */
export async function listReportSystems(db: Db, orgId: string) {
  const rows = await db.$client
    .prepare(
      `SELECT ms.id, ms.site_id, s.name AS site_name, ms.capacity_w, ${SYSTEM_LOCATION_KEY} AS location_key
       FROM ${SYSTEM_WITH_SITE} WHERE ms.org_id = ? AND ms.site_id IS NOT NULL AND s.org_id = ms.org_id`,
    )
    .bind(orgId)
    .all<
      Pick<SqlRow<typeof monitoringSystems>, "id" | "capacity_w"> & {
        site_id: string;
        site_name: SqlRow<typeof sites>["name"];
        location_key: string | null;
      }
    >();
  return rows.results;
}

/** Alerts opened and closed in [fromMs, toMs), and the energy lost per system of those opened. */
export async function alertFigures(db: Db, orgId: string, fromMs: number, toMs: number) {
  const [counts, lost] = await db.$client.batch<Record<string, number | string | null>>([
    db.$client
      .prepare(
        `SELECT (SELECT count(*) FROM alerts WHERE org_id = ?1 AND created_at >= ?2 AND created_at < ?3) AS opened,
                (SELECT count(*) FROM alerts WHERE org_id = ?1 AND resolved = 1
                   AND resolved_at >= ?2 AND resolved_at < ?3) AS closed`,
      )
      .bind(orgId, fromMs, toMs),
    db.$client
      .prepare(
        `SELECT system_id, sum(lost_energy_wh) AS lost_wh FROM alerts
         WHERE org_id = ? AND created_at >= ? AND created_at < ? AND lost_energy_wh IS NOT NULL
         GROUP BY system_id`,
      )
      .bind(orgId, fromMs, toMs),
  ]);
  const row = counts?.results[0] ?? {};
  return {
    opened: Number(row.opened ?? 0),
    closed: Number(row.closed ?? 0),
    lostWhBySystem: new Map(
      (lost?.results ?? []).map((r) => [String(r.system_id), Number(r.lost_wh ?? 0)] as const),
    ),
  };
}
