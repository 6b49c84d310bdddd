import type { Env } from "../env";
import { type MailTopic, signUnsubscribeToken } from "../lib/unsubscribe-token";

/** The public origin mail links point at (cron has no request to take it from). */
export const mailOrigin = (env: Env) => (env.APP_URL || "https://sunfleet.invalid").replace(/\/+$/, "");

/** The link that switches one mail preference of one user off without signing in. */
export async function unsubscribeUrl(env: Env, userId: string, topic: MailTopic, now: number) {
  const token = await signUnsubscribeToken({ userId, topic }, env.JWT_SECRET, now);
  return `${mailOrigin(env)}/api/unsubscribe?token=${encodeURIComponent(token)}`;
}
