import { deleteExpiredInvites } from "../data/invites";
import { deleteLoginFailuresBefore } from "../data/login-failures";
import type { Env } from "../env";
import { moveLegacyFleetData } from "../fleet/legacy-move";
import { createDb } from "../lib/db";
import { LOGIN_WINDOW_MS } from "../services/auth";

/**
 * Removes throttle records outside the login window and invites that can no longer be used, and
 * moves fleet data an upgrade left in D1 into the organisations' fleet stores. Raw readings past
 * their retention are removed by each fleet store's own alarm.
 */
export async function runMaintenance({ env, now }: { env: Env; now: number }) {
  const db = createDb(env.DB);
  const [failures, invites] = await db.batch([
    deleteLoginFailuresBefore(db, now - LOGIN_WINDOW_MS),
    deleteExpiredInvites(db, now),
  ]);
  const legacy = await moveLegacyFleetData(env);
  return {
    loginFailuresRemoved: failures.meta.changes,
    invitesRemoved: invites.meta.changes,
    legacyRowsMoved: legacy.moved,
  };
}
