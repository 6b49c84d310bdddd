import { deleteExpiredEmailVerifications } from "../data/email-verifications";
import { deleteExpiredInvites } from "../data/invites";
import { deleteStaleResets } from "../data/password-resets";
import { deleteExpiredSessions } from "../data/sessions";
import { fetchWeatherHistory, locationKey } from "../engines/irradiance";
import { moveLegacyFleetData } from "../engines/legacy-fleet-move";
import type { Env } from "../env";
import { createDb } from "../lib/db";
import { remindOrRemoveUnverifiedAccounts } from "../services/email-verification";
import { geocodeAwaitingPlants } from "../services/plant-sites";
import { tendStalledRuns } from "../sync";
import { removeExpiredRows } from "./retention";

export { SYNC_RUN_RETENTION_DAYS } from "./retention";

/**
 * Removes sessions past their token's expiry, invites and verification links that can no longer be
 * used, reminds and later removes accounts whose address was never verified, and moves
 * fleet data an upgrade left in D1 into the organisations' fleet stores. Raw readings past their
 * retention are removed by each fleet store's own alarm. Synced plants with only an address get
 * their geocoded site here, a few per run, so no sync page waits on the geocoder, and each new
 * site's place gets its past weather in the same run. Sync runs that
 * stopped moving are sent their next unit again, or closed as failed once their lease is over.
 * Last, rows past their retention leave D1 (./retention.ts), a bounded number per table.
 */
export async function runMaintenance({ env, now }: { env: Env; now: number }) {
  const db = createDb(env.DB);
  const [sessions, invites] = await db.batch([
    deleteExpiredSessions(db, now),
    deleteExpiredInvites(db, now),
    deleteStaleResets(db, now),
    deleteExpiredEmailVerifications(db, now),
  ]);
  const unverified = await remindOrRemoveUnverifiedAccounts({ env, now });
  const legacy = await moveLegacyFleetData(env);
  const plants = await geocodeAwaitingPlants({ env, now });
  // A geocoded site's place is new to the weather (the site stands where its address is, not
  // where the plant's vendor put it): its past hours now, not at the next run's refresh, so the
  // site's PR and losses exist from the moment it is made.
  const placesWithWeather = await fetchWeatherHistory({
    env,
    now,
    locationKeys: plants.places.map((place) => locationKey(place.latitude, place.longitude)),
  });
  const runs = await tendStalledRuns({ env, now });
  // After the stalled runs, so a run closed just now can go in the same pass once old enough.
  const removed = await removeExpiredRows({ env, now });
  return {
    syncRunsResumed: runs.resumed,
    syncRunsClosed: runs.closed,
    plantSitesCreated: plants.created,
    plantAddressesNotFound: plants.notFound,
    plantSitePlacesWithWeather: placesWithWeather,
    sessionsRemoved: sessions.meta.changes,
    syncRunsRemoved: removed.syncRuns,
    invitesRemoved: invites.meta.changes,
    verificationRemindersSent: unverified.remindersSent,
    unverifiedAccountsRemoved: unverified.unverifiedAccountsRemoved,
    unverifiedOrganizationsRemoved: unverified.organizationsRemoved,
    legacyRowsMoved: legacy.moved,
    rowsRemoved: removed,
  };
}
