import type { Env } from "../env";
import { createDb } from "../lib/db";
import { deliverDueMail } from "../services/email";

/** Sends (and retries) the mail waiting in the outbox. */
export async function runNotifications({ env, now }: { env: Env; now: number }) {
  const db = createDb(env.DB);
  const mail = await deliverDueMail({ env, db, now });
  return { mail };
}
