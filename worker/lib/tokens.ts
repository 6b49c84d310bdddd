import { errors, jwtVerify, SignJWT } from "jose";

export const TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
const ISSUER = "sunfleet";

const key = (secret: string) => new TextEncoder().encode(secret);

export async function signSessionToken(userId: string, secret: string, now = Date.now()): Promise<string> {
  const issuedAt = Math.floor(now / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + TOKEN_TTL_SECONDS)
    .sign(key(secret));
}

/** The user id the token was issued to, or null for a token that is expired, tampered or malformed. */
export async function verifySessionToken(token: string, secret: string): Promise<string | null> {
  try {
    // A session token always carries its subject and expiry; one without them never expires.
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      requiredClaims: ["sub", "iat", "exp"],
      maxTokenAge: TOKEN_TTL_SECONDS,
    });
    return typeof payload.sub === "string" ? payload.sub : null;
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
