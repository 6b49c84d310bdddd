import type { AlertsQuery } from "../../schema/api/alerts";
import type { Nullable, SqlRow } from "../../schema/sql-row";
import type { alerts, monitoringSystems, sites } from "../../schema/tables";
import type { Db } from "../lib/db";
import { type AlertEventRow, alertEventsOfSql } from "./alert-events";

type AlertColumns = SqlRow<typeof alerts>;
type SystemColumns = Nullable<SqlRow<typeof monitoringSystems>>;
type SiteColumns = Nullable<SqlRow<typeof sites>>;

/** An alert with the names of its system and site (LEFT JOINs: null when it has none). */
export type AlertRowWithNames = Pick<
  AlertColumns,
  | "id"
  | "title"
  | "message"
  | "facts"
  | "severity"
  | "created_at"
  | "resolved"
  | "resolved_at"
  | "code"
  | "device_serial"
  | "system_id"
  | "rule"
  | "lost_energy_wh"
  | "acknowledged_at"
  | "acknowledged_by"
  | "assigned_to"
> & {
  /** The vendor's alarm's vendor, or for Sunfleet's own alerts the vendor of the system concerned. */
  provider: AlertColumns["provider"] | SystemColumns["provider"];
  system_name: SystemColumns["name"];
  site_id: SiteColumns["id"];
  site_name: SiteColumns["name"];
  /** The site's zone, else the system's: the alert's days are counted in it. */
  timezone: SiteColumns["timezone"];
};

const SELECT_WITH_NAMES = `
  SELECT a.id, a.title, a.message, a.facts, a.severity, a.created_at, a.resolved, a.resolved_at,
    coalesce(a.provider, ms.provider) AS provider, a.code,
    a.device_serial, a.system_id, ms.name AS system_name, s.id AS site_id, s.name AS site_name,
    a.rule, a.lost_energy_wh, a.acknowledged_at, a.acknowledged_by, a.assigned_to,
    coalesce(s.timezone, ms.timezone) AS timezone
  FROM alerts a
  LEFT JOIN monitoring_systems ms ON ms.id = a.system_id AND ms.org_id = a.org_id
  LEFT JOIN sites s ON s.id = ms.site_id AND s.org_id = a.org_id`;

/** Where a page of alerts ends: the next page starts after this row in the list's order. */
export interface AlertCursor {
  createdAt: number;
  id: string;
  /** coalesce(lost_energy_wh, -1): the first sort key of the lostEnergy order. */
  lostEnergyWh: number;
}

export const alertCursorOf = (row: AlertRowWithNames): AlertCursor => ({
  createdAt: row.created_at,
  id: row.id,
  lostEnergyWh: row.lost_energy_wh ?? -1,
});

/** Searches of at least this many characters use the trigram index; shorter ones read every alert. */
const SEARCH_INDEX_MIN_CHARS = 3;

/** The filters of the alert list: the state, severity, provider, site and a search. */
type AlertFilters = Pick<AlertsQuery, "state" | "severity" | "sort"> &
  Partial<Pick<AlertsQuery, "q" | "provider" | "siteId">>;

function filterConditions(orgId: string, query: AlertFilters) {
  const conditions = ["a.org_id = ?"];
  const params: unknown[] = [orgId];
  if (query.state !== "all") {
    conditions.push("a.resolved = ?");
    params.push(query.state === "resolved" ? 1 : 0);
  }
  if (query.severity) {
    conditions.push("a.severity = ?");
    params.push(query.severity);
  }
  if (query.provider) {
    conditions.push("coalesce(a.provider, ms.provider) = ?");
    params.push(query.provider);
  }
  if (query.siteId) {
    conditions.push("ms.site_id = ?");
    params.push(query.siteId);
  }
  const search = query.q ?? "";
  const indexedSearch = [...search].length >= SEARCH_INDEX_MIN_CHARS;
  if (indexedSearch) {
    // The trigram index (migration 0031) finds the alerts whose text holds the search: the search
    // as one quoted phrase, so nothing the user typed is read as query syntax.
    conditions.push("a.rowid IN (SELECT rowid FROM alerts_search WHERE alerts_search MATCH ?)");
    params.push(`"${search.replaceAll('"', '""')}"`);
  } else if (search) {
    // Shorter than a trigram: the same text (the view of migration 0031), read for every alert.
    conditions.push(
      "a.rowid IN (SELECT alert_rowid FROM alerts_search_text WHERE org_id = ? AND instr(lower(body), ?) > 0)",
    );
    params.push(orgId, search.toLowerCase());
  }
  // The provider and site filters read the alert's system.
  const readsNames = Boolean(query.provider || query.siteId);
  return { conditions, params, readsNames };
}

/** The count of the matching alerts; joined to their systems and sites only when a filter reads them. */
function countSql({ conditions, readsNames }: ReturnType<typeof filterConditions>) {
  const joins = readsNames
    ? `LEFT JOIN monitoring_systems ms ON ms.id = a.system_id AND ms.org_id = a.org_id
       LEFT JOIN sites s ON s.id = ms.site_id AND s.org_id = a.org_id`
    : "";
  return `SELECT count(*) AS n FROM alerts a ${joins} WHERE ${conditions.join(" AND ")}`;
}

/**
 * The list's statement: newest first (or most energy lost first), `limit` rows after `after`
 * (keyset: read by the index from where the last page ended, never by skipping rows) or after
 * `offset` rows; served by alerts_org_resolved_created_idx and alerts_org_resolved_loss_idx.
 */
function listStatement(
  orgId: string,
  query: AlertFilters,
  page: { limit: number; after?: AlertCursor | null; offset?: number },
) {
  const { conditions, params } = filterConditions(orgId, query);
  const byLoss = query.sort === "lostEnergy";
  const after = page.after;
  if (after) {
    const newer = "(a.created_at < ? OR (a.created_at = ? AND a.id > ?))";
    if (byLoss) {
      conditions.push(
        `(coalesce(a.lost_energy_wh, -1) < ? OR (coalesce(a.lost_energy_wh, -1) = ? AND ${newer}))`,
      );
      params.push(after.lostEnergyWh, after.lostEnergyWh);
    } else {
      conditions.push(newer);
    }
    params.push(after.createdAt, after.createdAt, after.id);
  }
  return {
    sql: `${SELECT_WITH_NAMES} WHERE ${conditions.join(" AND ")} ORDER BY ${byLoss ? "coalesce(a.lost_energy_wh, -1) DESC, " : ""}a.created_at DESC, a.id LIMIT ? OFFSET ?`,
    params: [...params, page.limit, page.offset ?? 0],
  };
}

export async function listAlerts(
  db: Db,
  orgId: string,
  query: AlertFilters,
  page: { limit: number; after?: AlertCursor | null; offset?: number },
) {
  const list = listStatement(orgId, query, page);
  const rows = await db.$client
    .prepare(list.sql)
    .bind(...list.params)
    .all<AlertRowWithNames>();
  return rows.results;
}

/**
 * A page of the list (`limit` rows after `offset`), how many alerts the filters match and the
 * page's history, in one call to D1 (a call costs more than these small statements).
 */
export async function readAlertsPage(
  db: Db,
  orgId: string,
  query: AlertFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: AlertRowWithNames[]; total: number; events: AlertEventRow[] }> {
  const list = listStatement(orgId, query, page);
  const filters = filterConditions(orgId, query);
  const [rows, count, events] = await db.$client.batch([
    db.$client.prepare(list.sql).bind(...list.params),
    db.$client.prepare(countSql(filters)).bind(...filters.params),
    db.$client.prepare(alertEventsOfSql(`SELECT id FROM (${list.sql})`)).bind(orgId, ...list.params),
  ]);
  return {
    rows: (rows?.results ?? []) as AlertRowWithNames[],
    total: Number((count?.results[0] as { n: number } | undefined)?.n ?? 0),
    events: (events?.results ?? []) as AlertEventRow[],
  };
}

export async function findAlert(db: Db, orgId: string, alertId: string) {
  return db.$client
    .prepare(`${SELECT_WITH_NAMES} WHERE a.org_id = ? AND a.id = ?`)
    .bind(orgId, alertId)
    .first<AlertRowWithNames>();
}

export async function countOpenAlerts(db: Db, orgId: string) {
  const rows = await db.$client
    .prepare("SELECT severity, count(*) AS n FROM alerts WHERE org_id = ? AND resolved = 0 GROUP BY severity")
    .bind(orgId)
    .all<Pick<AlertColumns, "severity"> & { n: number }>();
  return rows.results;
}

export const setAlertResolved = (
  db: Db,
  orgId: string,
  alertId: string,
  resolved: boolean,
  by: string,
  now: number,
) =>
  db.$client
    .prepare(
      // A resolved alert gives up its open key; reopening takes it back only if no newer alert holds it.
      `UPDATE alerts SET resolved = ?, resolved_at = ?, resolved_by = ?,
         open_key = CASE WHEN ? THEN NULL
           WHEN provider_alarm_id IS NULL AND system_id IS NOT NULL AND rule <> 'vendor_alarm'
             AND NOT EXISTS (SELECT 1 FROM alerts o WHERE o.org_id = alerts.org_id
               AND o.open_key = alerts.rule || ':' || alerts.system_id || ':' || coalesce(alerts.device_serial, ''))
           THEN rule || ':' || system_id || ':' || coalesce(device_serial, '') ELSE open_key END
       WHERE org_id = ? AND id = ?`,
    )
    .bind(resolved ? 1 : 0, resolved ? now : null, resolved ? by : null, resolved ? 1 : 0, orgId, alertId);

export const setAlertAcknowledged = (db: Db, orgId: string, alertId: string, by: string, now: number) =>
  db.$client
    .prepare("UPDATE alerts SET acknowledged_at = ?, acknowledged_by = ? WHERE org_id = ? AND id = ?")
    .bind(now, by, orgId, alertId);

export const setAlertAssignee = (db: Db, orgId: string, alertId: string, userId: string | null) =>
  db.$client
    .prepare("UPDATE alerts SET assigned_to = ? WHERE org_id = ? AND id = ?")
    .bind(userId, orgId, alertId);

/**
 * The oldest `windowSize` alerts resolved before `before` (served by alerts_resolved_at_idx): the
 * window retention clears in one pass, their history and notifications first, then the alerts.
 * Open alerts are never in it. Binds the cutoff and the window size, in that order.
 */
export const EXPIRED_ALERTS_WINDOW_SQL =
  "SELECT id FROM alerts WHERE resolved = 1 AND resolved_at < ? ORDER BY resolved_at LIMIT ?";

/** The rows that belong to an alert and go before it: its history and its notifications. */
export type AlertChildTable = "alert_events" | "notifications";

/**
 * Removes up to `maxRows` rows of `table` belonging to the expired alerts' window (served by each
 * table's alert index), read or not; answers how many were removed.
 */
export async function deleteExpiredAlertChildren(
  db: Db,
  table: AlertChildTable,
  before: number,
  windowSize: number,
  maxRows: number,
): Promise<number> {
  const result = await db.$client
    .prepare(
      `DELETE FROM ${table} WHERE id IN (
         SELECT c.id FROM (${EXPIRED_ALERTS_WINDOW_SQL}) w JOIN ${table} c ON c.alert_id = w.id LIMIT ?)`,
    )
    .bind(before, windowSize, maxRows)
    .run();
  return result.meta.changes;
}

/**
 * Removes the alerts of the expired window whose history and notifications are already gone, so
 * no cascade deletes more rows than the pass allowed; answers how many were removed.
 */
export async function deleteExpiredAlerts(db: Db, before: number, windowSize: number): Promise<number> {
  const result = await db.$client
    .prepare(
      `DELETE FROM alerts WHERE id IN (
         SELECT w.id FROM (${EXPIRED_ALERTS_WINDOW_SQL}) w
         WHERE NOT EXISTS (SELECT 1 FROM alert_events e WHERE e.alert_id = w.id)
           AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.alert_id = w.id))
       RETURNING id`,
    )
    .bind(before, windowSize)
    .all();
  // Counted from the rows returned: D1's change count takes in the search index's rows the
  // triggers remove with each alert.
  return result.results.length;
}
