import type { CaughtMail } from "../../sandbox/mail";

/** The sandbox's mail catcher, as the worker under test reaches it. */
export const MAIL_CATCHER = "http://sandbox.test/mail";

/** Every mail the catcher holds for one recipient, oldest first. */
export async function allMailTo(email: string): Promise<CaughtMail[]> {
  const response = await fetch(`${MAIL_CATCHER}/messages?to=${encodeURIComponent(email)}`);
  if (!response.ok) throw new Error(`mail catcher answered ${response.status}`);
  return (await response.json()) as CaughtMail[];
}

/** Account mail carries one of these links: the address verification (and its reminder), an invite. */
const ACCOUNT_MAIL_LINK = /\/verify-email\?token=|\/login\?invite=/;
const isAccountMail = (mail: CaughtMail) => ACCOUNT_MAIL_LINK.test(mail.text);

/**
 * Mail the catcher holds for one recipient, oldest first, without the account mail every signed-up
 * owner and invited member receives (`accountMailTo` reads that): what a feature's own mail tests see.
 */
export async function caughtMailTo(email: string): Promise<CaughtMail[]> {
  return (await allMailTo(email)).filter((mail) => !isAccountMail(mail));
}

/**
 * The recipient's mail (as `caughtMailTo`) once at least `count` have arrived: for mail sent after
 * the answer, as the password reset's is.
 */
export async function mailArriving(email: string, count = 1, withinMs = 5000): Promise<CaughtMail[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const mails = await caughtMailTo(email);
    if (mails.length >= count) return mails;
    if (Date.now() > deadline)
      throw new Error(`${mails.length} of ${count} mails to ${email} within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The verification and invite mail the catcher holds for one recipient, oldest first. */
export async function accountMailTo(email: string): Promise<CaughtMail[]> {
  return (await allMailTo(email)).filter(isAccountMail);
}

/** The link in a mail's text whose path is `path`. */
export function linkIn(mail: CaughtMail, path: string): URL {
  const match = mail.text.match(new RegExp(`https?://\\S+${path.replace(/\//g, "\\/")}\\S*`));
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return new URL(match[0]);
}
