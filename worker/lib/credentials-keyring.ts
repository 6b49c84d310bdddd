import { notConfigured } from "./errors";

/**
 * The keys that encrypt provider credentials. CREDENTIALS_KEYS lists them as
 * `id:base64,id:base64` (32 random bytes each), oldest first: new writes use the last one, and
 * each stored row names the key it was written with, so older keys keep reading until the
 * rotation command has re-encrypted everything. A lone CREDENTIALS_KEY is the key `default`.
 */
export const DEFAULT_KEY_ID = "default";
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

export const CREDENTIALS_KEYS_ERROR =
  "Server is not configured to store credentials: CREDENTIALS_KEYS must list id:key pairs (each key 32 random bytes, base64)";

export interface RawKey {
  id: string;
  /** Base64 of 32 bytes. */
  secret: string;
}

export interface Keyring {
  /** The key new writes use. */
  newestId: string;
  key(id: string): CryptoKey | undefined;
}

const configError = () => notConfigured(CREDENTIALS_KEYS_ERROR);

/** The configured keys in order, oldest first; throws 503 when the setting is missing or malformed. */
export function parseKeyring(env: { CREDENTIALS_KEYS?: string; CREDENTIALS_KEY?: string }): RawKey[] {
  const listed = env.CREDENTIALS_KEYS?.trim();
  if (!listed) {
    if (!env.CREDENTIALS_KEY) throw configError();
    return [{ id: DEFAULT_KEY_ID, secret: env.CREDENTIALS_KEY.trim() }];
  }
  const keys = listed.split(",").map((entry): RawKey => {
    const separator = entry.indexOf(":");
    if (separator < 0) throw configError();
    return { id: entry.slice(0, separator).trim(), secret: entry.slice(separator + 1).trim() };
  });
  const ids = new Set(keys.map((k) => k.id));
  if (ids.size !== keys.length || keys.some((k) => !KEY_ID.test(k.id))) throw configError();
  return keys;
}

function keyBytes(secret: string): Uint8Array<ArrayBuffer> {
  let raw: Uint8Array<ArrayBuffer>;
  try {
    raw = Uint8Array.from(atob(secret), (c) => c.charCodeAt(0));
  } catch {
    throw configError();
  }
  if (raw.length !== 32) throw configError();
  return raw;
}

export async function loadKeyring(env: {
  CREDENTIALS_KEYS?: string;
  CREDENTIALS_KEY?: string;
}): Promise<Keyring> {
  const raw = parseKeyring(env);
  const keys = new Map<string, CryptoKey>();
  for (const { id, secret } of raw) {
    keys.set(
      id,
      await crypto.subtle.importKey("raw", keyBytes(secret), "AES-GCM", false, ["encrypt", "decrypt"]),
    );
  }
  const newest = raw[raw.length - 1];
  if (!newest) throw configError();
  return { newestId: newest.id, key: (id) => keys.get(id) };
}
