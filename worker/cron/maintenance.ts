import { deleteOldSyncRuns } from "../data/connections";
import { deleteExpiredInvites } from "../data/invites";
import { deleteStaleResets } from "../data/password-resets";
import { deleteExpiredSessions } from "../data/sessions";
import type { Env } from "../env";
import { moveLegacyFleetData } from "../fleet/legacy-move";
import { createDb } from "../lib/db";
import { geocodeAwaitingPlants } from "../services/plant-sites";
import { tendStalledRuns } from "../sync/stalled-runs";

/**
 * Removes sessions past their token's expiry and invites that can no longer be used, and moves
 * fleet data an upgrade left in D1 into the organisations' fleet stores. Raw readings past their
 * retention are removed by each fleet store's own alarm. Synced plants with only an address get
 * their geocoded site here, a few per run, so no sync page waits on the geocoder. Sync runs that
 * stopped moving are sent their next unit again, or closed as failed once their lease is over;
 * ended runs are kept SYNC_RUN_RETENTION_DAYS, removed a bounded number per run.
 */
/** A connection's sync history (Provider Credentials) covers this many days. */
export const SYNC_RUN_RETENTION_DAYS = 7;
/** Runs removed per maintenance run at most: a 7,500-connection platform ends ~2,200 runs in 5 minutes. */
export const SYNC_RUNS_REMOVED_PER_RUN = 10_000;

export async function runMaintenance({ env, now }: { env: Env; now: number }) {
  const db = createDb(env.DB);
  const [sessions, invites, , syncRuns] = await db.batch([
    deleteExpiredSessions(db, now),
    deleteExpiredInvites(db, now),
    deleteStaleResets(db, now),
    deleteOldSyncRuns(db, now - SYNC_RUN_RETENTION_DAYS * 86_400_000, SYNC_RUNS_REMOVED_PER_RUN),
  ]);
  const legacy = await moveLegacyFleetData(env);
  const plants = await geocodeAwaitingPlants({ env, now });
  const runs = await tendStalledRuns({ env, now });
  return {
    syncRunsResumed: runs.resumed,
    syncRunsClosed: runs.closed,
    plantSitesCreated: plants.created,
    plantAddressesNotFound: plants.notFound,
    sessionsRemoved: sessions.meta.changes,
    syncRunsRemoved: syncRuns.meta.changes,
    invitesRemoved: invites.meta.changes,
    legacyRowsMoved: legacy.moved,
  };
}
