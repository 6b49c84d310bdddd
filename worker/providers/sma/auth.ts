import { ProviderError } from "../errors";
import type { ProviderCallContext, ProviderUrls } from "../types";
import { parseVendorAnswer } from "../vendor-parse";
import type { SmaCredentials } from "./credentials";
import { consentSchema, tokenSchema } from "./schemas";

/** The backchannel consent endpoints: production serves them from a host of their own. */
const consentBaseUrl = (urls: ProviderUrls) => urls.smaConsent;

export interface AccessToken {
  value: string;
  expiresAt: number;
}

/** RFC 6749 §2.3.1: the client id and secret are form-encoded before they go into HTTP Basic. */
const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");

/** OAuth2 client credentials grant against SMA's Keycloak: the token lives 300 s. */
export async function requestAccessToken(
  ctx: ProviderCallContext,
  credentials: SmaCredentials,
): Promise<AccessToken> {
  const basic = btoa(`${formEncode(credentials.clientId)}:${formEncode(credentials.clientSecret)}`);
  let body: unknown;
  try {
    body = await ctx.http.json(
      {
        method: "POST",
        url: `${ctx.urls.smaAuth}/oauth2/token`,
        headers: {
          Authorization: `Basic ${basic}`,
          "Content-Type": "application/x-www-form-urlencoded",
          Accept: "application/json",
        },
        body: new URLSearchParams({ grant_type: "client_credentials" }).toString(),
      },
      // Keycloak answers 400 (unauthorized_client) for a client not enabled for this grant.
      { authStatuses: [400, 401, 403] },
    );
  } catch (error) {
    if (error instanceof ProviderError && error.kind === "auth") {
      throw new ProviderError(
        "auth",
        `SMA rejected the client ID or client secret (${error.message}). Check both against what SMA issued.`,
      );
    }
    throw error;
  }
  const token = parseVendorAnswer(tokenSchema, body, "SMA", "the token request");
  return { value: token.access_token, expiresAt: ctx.now() + token.expires_in * 1000 };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}`, Accept: "application/json" });
const isState = (state: string | null, expected: "accepted" | "pending") => state?.toLowerCase() === expected;
const isDeclined = (state: string | null) => state !== null && /reject|declin|denied|revok/i.test(state);

/** The consent state for this owner, or null when none was ever requested (SMA answers a 4xx). */
async function readConsentState(
  ctx: ProviderCallContext,
  token: string,
  email: string,
): Promise<string | null> {
  let body: unknown;
  try {
    body = await ctx.http.json({
      url: `${consentBaseUrl(ctx.urls)}/oauth2/v2/bc-authorize/${encodeURIComponent(email)}`,
      headers: bearer(token),
    });
  } catch (error) {
    if (error instanceof ProviderError && error.kind === "invalid_request") return null;
    throw error;
  }
  return parseVendorAnswer(consentSchema, body, "SMA", "the consent status").state;
}

/** Asks SMA to e-mail the owner for approval; answers the state when SMA includes one. */
async function requestConsent(
  ctx: ProviderCallContext,
  token: string,
  email: string,
): Promise<string | null> {
  try {
    const body = await ctx.http.json({
      method: "POST",
      url: `${consentBaseUrl(ctx.urls)}/oauth2/v2/bc-authorize`,
      headers: { ...bearer(token), "Content-Type": "application/json" },
      body: JSON.stringify({ loginHint: email }),
    });
    return consentSchema.safeParse(body).data?.state ?? null;
  } catch (error) {
    // The status was 200/201 (statuses are checked first); only the optional body was unreadable.
    if (error instanceof ProviderError && error.kind === "malformed") return null;
    if (error instanceof ProviderError && error.kind === "invalid_request") {
      throw new ProviderError(
        "auth",
        `SMA did not accept a consent request for ${email} (${error.message}): check that it is the e-mail of the SMA account that owns the plants.`,
      );
    }
    throw error;
  }
}

/**
 * Makes sure the plant owner approved access (SMA's backchannel flow). A first request makes SMA
 * e-mail the owner; while that is pending nothing is asked again, so the owner gets one e-mail.
 * A declined consent is asked again only when `askAgainIfDeclined` (a person testing the
 * connection), never from scheduled syncs.
 *
 * Pending consent is an "invalid_request" error: the credentials are fine, but syncing cannot
 * start until the owner acts, and a retry loop would not change that.
 */
export async function ensureOwnerConsent(
  ctx: ProviderCallContext,
  token: string,
  email: string,
  askAgainIfDeclined: boolean,
): Promise<void> {
  let state = await readConsentState(ctx, token, email);
  const mayAsk = state === null || (isDeclined(state) ? askAgainIfDeclined : !isState(state, "pending"));
  if (!isState(state, "accepted") && mayAsk) {
    const requested = await requestConsent(ctx, token, email);
    state = isState(requested, "accepted") ? requested : await readConsentState(ctx, token, email);
  }
  if (isState(state, "accepted")) return;
  if (isDeclined(state)) {
    throw new ProviderError(
      "auth",
      `The plant owner (${email}) declined access in SMA's consent e-mail (state "${state}"). Ask them to approve it, then test the connection again.`,
    );
  }
  throw new ProviderError(
    "invalid_request",
    `Waiting for the plant owner to approve access: SMA sent a consent e-mail to ${email}. Test the connection again once they have accepted it.`,
  );
}
