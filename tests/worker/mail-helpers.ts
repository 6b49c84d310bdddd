import type { CaughtMail } from "../../sandbox/mail";

/** The sandbox's mail catcher, as the worker under test reaches it. */
export const MAIL_CATCHER = "http://sandbox.test/mail";

/** Mail the catcher holds for one recipient, oldest first. */
export async function caughtMailTo(email: string): Promise<CaughtMail[]> {
  const response = await fetch(`${MAIL_CATCHER}/messages?to=${encodeURIComponent(email)}`);
  if (!response.ok) throw new Error(`mail catcher answered ${response.status}`);
  return (await response.json()) as CaughtMail[];
}

/** The link in a mail's text whose path is `path`. */
export function linkIn(mail: CaughtMail, path: string): URL {
  const match = mail.text.match(new RegExp(`https?://\\S+${path.replace(/\//g, "\\/")}\\S*`));
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return new URL(match[0]);
}
