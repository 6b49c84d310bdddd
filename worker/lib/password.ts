/**
 * PBKDF2-SHA256 password hashing through WebCrypto (runs in workerd and in Node for the admin CLI).
 * 100,000 iterations is the most deployed Workers accept; the count is stored with each hash
 * so it can rise later without invalidating existing passwords.
 */
export const PASSWORD_ITERATIONS = 100_000;
const KEY_BITS = 256;

/** The bindings that choose the cost of new hashes. */
export interface PasswordCostEnv {
  APP_ENV: string;
  /** Test suites only: a lower count for new hashes (ignored unless APP_ENV is "test"). */
  PASSWORD_ITERATIONS?: string;
}

/**
 * Iterations for new hashes: always PASSWORD_ITERATIONS, except that the test environment may set a
 * lower PASSWORD_ITERATIONS so suites that create many accounts stay fast. Verification always
 * uses the count stored with the hash.
 */
export function passwordIterations(env: PasswordCostEnv): number {
  if (env.APP_ENV !== "test" || env.PASSWORD_ITERATIONS === undefined) return PASSWORD_ITERATIONS;
  const iterations = Number(env.PASSWORD_ITERATIONS);
  return Number.isInteger(iterations) && iterations > 0 && iterations <= PASSWORD_ITERATIONS
    ? iterations
    : PASSWORD_ITERATIONS;
}

export interface PasswordHash {
  hash: string;
  salt: string;
  iterations: number;
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function derive(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    key,
    KEY_BITS,
  );
  return new Uint8Array(bits);
}

export async function hashPassword(
  password: string,
  iterations = PASSWORD_ITERATIONS,
): Promise<PasswordHash> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, iterations);
  return { hash: toBase64(hash), salt: toBase64(salt), iterations };
}

/** Constant-time comparison of the derived key, so timing does not leak how much matched. */
export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const expected = fromBase64(stored.hash);
  const actual = await derive(password, fromBase64(stored.salt), stored.iterations);
  if (actual.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < actual.length; i++) diff |= (actual[i] ?? 0) ^ (expected[i] ?? 0);
  return diff === 0;
}

/**
 * A hash of a random password at the count new accounts get, compared against when the email is
 * unknown so timing is the same.
 */
const dummyHashes = new Map<number, Promise<PasswordHash>>();
export function dummyPasswordHash(iterations = PASSWORD_ITERATIONS): Promise<PasswordHash> {
  let dummy = dummyHashes.get(iterations);
  if (!dummy) {
    dummy = hashPassword(crypto.randomUUID(), iterations);
    dummyHashes.set(iterations, dummy);
  }
  return dummy;
}
