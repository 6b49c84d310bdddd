import { errors, jwtVerify, SignJWT } from "jose";
import { z } from "zod";

/** The mail preferences an unsubscribe link can switch off, named as in the preferences API. */
export const mailTopics = ["realtimeAlerts", "weeklyDigest", "monthlyReports"] as const;
export type MailTopic = (typeof mailTopics)[number];

// Its own issuer and audience: a session check (issuer `sunfleet`, `sid` required) refuses this
// token, and this check refuses a session token.
const ISSUER = "sunfleet-mail";
const AUDIENCE = "unsubscribe";
/** Old mails' links keep working for a year. */
const TTL_SECONDS = 365 * 24 * 60 * 60;

const key = (secret: string) => new TextEncoder().encode(secret);
const claimsSchema = z.object({ sub: z.string().min(1), topic: z.enum(mailTopics) });

export interface UnsubscribeClaims {
  userId: string;
  topic: MailTopic;
}

/** A signed (HS256) token that can only switch off one mail topic of one user. */
export async function signUnsubscribeToken(
  claims: UnsubscribeClaims,
  secret: string,
  now: number,
): Promise<string> {
  const issuedAt = Math.floor(now / 1000);
  return new SignJWT({ topic: claims.topic })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + TTL_SECONDS)
    .sign(key(secret));
}

/** The claims of a valid unsubscribe token, or null for anything else. */
export async function verifyUnsubscribeToken(
  token: string,
  secret: string,
  now: number,
): Promise<UnsubscribeClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ["sub", "exp", "topic"],
      currentDate: new Date(now),
    });
    const claims = claimsSchema.safeParse(payload);
    return claims.success ? { userId: claims.data.sub, topic: claims.data.topic } : null;
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
