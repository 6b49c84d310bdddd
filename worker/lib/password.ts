/**
 * PBKDF2-SHA256 password hashing through WebCrypto (runs in workerd and in Node for the admin CLI).
 * 100,000 iterations is the most deployed Workers accept; the count is stored with each hash
 * so it can rise later without invalidating existing passwords.
 */
export const PASSWORD_ITERATIONS = 100_000;
const KEY_BITS = 256;

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

/** A hash of a random password, compared against when the email is unknown so timing is the same. */
let dummyHash: Promise<PasswordHash> | undefined;
export function dummyPasswordHash(): Promise<PasswordHash> {
  dummyHash ??= hashPassword(crypto.randomUUID());
  return dummyHash;
}
