import { errors, jwtVerify, SignJWT } from "jose";

export const TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
const ISSUER = "sunfleet";

const key = (secret: string) => new TextEncoder().encode(secret);

/** What a verified session token carries: its user, its session record and when it expires. */
export interface SessionClaims {
  userId: string;
  sessionId: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export async function signSessionToken(
  userId: string,
  sessionId: string,
  secret: string,
  now = Date.now(),
): Promise<string> {
  const issuedAt = Math.floor(now / 1000);
  return new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + TOKEN_TTL_SECONDS)
    .sign(key(secret));
}

/**
 * The claims of a valid token, or null for a token that is expired, tampered, malformed or names
 * no session. Whether the session still exists is the caller's check (D1).
 */
export async function verifySessionToken(token: string, secret: string): Promise<SessionClaims | null> {
  try {
    // A session token always carries its subject, session and expiry; one without them never expires.
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      requiredClaims: ["sub", "iat", "exp", "sid"],
      maxTokenAge: TOKEN_TTL_SECONDS,
    });
    if (typeof payload.sub !== "string" || typeof payload.sid !== "string" || payload.exp === undefined) {
      return null;
    }
    return { userId: payload.sub, sessionId: payload.sid, expiresAt: payload.exp * 1000 };
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
