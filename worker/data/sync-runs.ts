import type { Db } from "../lib/db";

/**
 * Removes up to `maxRows` ended runs that started before `before`, oldest first (served by
 * sync_runs_started_idx). Running runs stay whatever their age (maintenance closes them first),
 * and so does each connection's latest ended run, so a connection that stopped syncing still shows
 * how its last run went. Answers how many were removed.
 */
export async function deleteExpiredSyncRuns(db: Db, before: number, maxRows: number): Promise<number> {
  const result = await db.$client
    .prepare(
      `DELETE FROM sync_runs WHERE id IN (
         SELECT r.id FROM sync_runs r
         WHERE r.started_at < ?1 AND r.status <> 'running'
           AND r.started_at < (SELECT max(n.started_at) FROM sync_runs n
             WHERE n.connection_id = r.connection_id AND n.status <> 'running')
         ORDER BY r.started_at LIMIT ?2)`,
    )
    .bind(before, maxRows)
    .run();
  return result.meta.changes;
}
