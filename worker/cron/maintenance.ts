import { deleteExpiredInvites } from "../data/invites";
import { deleteLoginFailuresBefore } from "../data/login-failures";
import { pruneRawReadings } from "../data/rollups";
import type { Env } from "../env";
import { createDb, runBatch } from "../lib/db";
import { LOGIN_WINDOW_MS } from "../services/auth";

/**
 * Removes throttle records outside the login window, invites that can no longer be used, and raw
 * readings past their retention (their hours and days are already rolled up).
 */
export async function runMaintenance({ env, now }: { env: Env; now: number }) {
  const db = createDb(env.DB);
  const [failures, invites] = await db.batch([
    deleteLoginFailuresBefore(db, now - LOGIN_WINDOW_MS),
    deleteExpiredInvites(db, now),
  ]);
  const pruned = await runBatch(db, pruneRawReadings(db, now));
  return {
    loginFailuresRemoved: failures.meta.changes,
    invitesRemoved: invites.meta.changes,
    readingsRemoved: pruned.reduce((n, r) => n + (r.meta.changes ?? 0), 0),
  };
}
