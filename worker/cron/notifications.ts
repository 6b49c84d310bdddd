import { sendRealtimeAlertMail } from "../engines/alert-mail";
import { sendPeriodicMail } from "../engines/periodic-mail";
import type { Env } from "../env";
import { createDb } from "../lib/db";
import { deliverDueMail } from "../mail/outbox";

/** Queues due alert mails, digests and reports, then sends (and retries) what waits in the outbox. */
export async function runNotifications({ env, now }: { env: Env; now: number }) {
  const db = createDb(env.DB);
  const alerts = await sendRealtimeAlertMail({ env, db, now });
  const periodic = await sendPeriodicMail({ env, db, now });
  const mail = await deliverDueMail({ env, db, now });
  return { alerts, periodic, mail };
}
