/** Strings of the address verification (banner, link page, account status): loaded with those only. */
export const verificationEn = {
  banner: {
    title: "Confirm your e-mail address",
    body: "We sent a link to {{email}}. Until you follow it you cannot create API keys or invite colleagues, and an account never confirmed is removed 7 days after sign-up.",
    resend: "Send again",
    sending: "Sending...",
    sent: "A new link is on its way to {{email}}.",
    alreadyVerified: "Your address is already confirmed.",
    failed: "The link was not sent",
    failedDefault: "Try again in a moment.",
  },
  page: {
    title: "Confirm your e-mail address",
    verifying: "Confirming your address...",
    failed: "This link does not work",
    failedBody:
      "It is invalid, has expired or has already been used. Sign in and ask for a new one on your dashboard.",
    missingToken: "This page needs the link from the confirmation e-mail.",
    toLogin: "Go to sign in",
    toDashboard: "Go to the dashboard",
  },
  account: {
    verified: "Confirmed",
    unverified: "Not confirmed yet",
  },
  invite: {
    movesAccount:
      "Your address is not confirmed yet: accepting moves this account into the inviting organisation, and {{company}}, which only you belong to, is deleted with everything in it.",
  },
};

export type VerificationTranslation = typeof verificationEn;
