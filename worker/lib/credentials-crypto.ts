import { ApiError } from "./errors";

/**
 * Provider credentials are encrypted with AES-GCM under CREDENTIALS_KEY (32 random bytes,
 * base64). Each record has its own random IV, and the organisation id is bound as additional
 * data, so a ciphertext copied into another organisation's row does not decrypt.
 */
const IV_BYTES = 12;

export interface EncryptedBlob {
  ciphertext: string;
  iv: string;
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export const CREDENTIALS_KEY_ERROR =
  "Server is not configured to store credentials: CREDENTIALS_KEY must be 32 random bytes, base64-encoded";

/** Imports the key, answering 503 (not 500) when it is missing or malformed. */
export async function importCredentialsKey(encoded: string | undefined): Promise<CryptoKey> {
  let raw: Uint8Array<ArrayBuffer>;
  try {
    raw = fromBase64(encoded ?? "");
  } catch {
    throw new ApiError(503, CREDENTIALS_KEY_ERROR);
  }
  if (raw.length !== 32) throw new ApiError(503, CREDENTIALS_KEY_ERROR);
  return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

export async function encryptJson(key: CryptoKey, value: unknown, orgId: string): Promise<EncryptedBlob> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const plaintext = new TextEncoder().encode(JSON.stringify(value));
  const ciphertext = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(orgId) },
    key,
    plaintext,
  );
  return { ciphertext: toBase64(new Uint8Array(ciphertext)), iv: toBase64(iv) };
}

export async function decryptJson<T>(key: CryptoKey, blob: EncryptedBlob, orgId: string): Promise<T> {
  const plaintext = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64(blob.iv), additionalData: new TextEncoder().encode(orgId) },
    key,
    fromBase64(blob.ciphertext),
  );
  return JSON.parse(new TextDecoder().decode(plaintext)) as T;
}
