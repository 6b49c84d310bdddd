import type { Keyring } from "./credentials-keyring";
import { DEFAULT_KEY_ID } from "./credentials-keyring";

/**
 * Provider credentials and vendor sessions are encrypted with AES-GCM under a key of the
 * keyring. Each record has its own random IV, and the organisation, the connection and the
 * purpose are bound as additional data, so a ciphertext copied into another connection's row,
 * or from the session column into the credentials column, does not decrypt.
 */
const IV_BYTES = 12;

export type BlobPurpose = "credentials" | "session";

export interface BlobScope {
  orgId: string;
  connectionId: string;
  purpose: BlobPurpose;
}

export interface EncryptedBlob {
  ciphertext: string;
  iv: string;
  /** The keyring id of the key; null for rows written before the keyring (the default key, org-only binding). */
  keyId: string | null;
}

/** Why a stored blob cannot be read: the message is shown to the user as the connection's reason. */
export class UnreadableBlobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnreadableBlobError";
  }
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

const additionalData = (scope: BlobScope, keyId: string | null) =>
  new TextEncoder().encode(
    keyId === null ? scope.orgId : `sunfleet/v2|${scope.orgId}|${scope.connectionId}|${scope.purpose}`,
  );

export async function encryptJson(
  keyring: Keyring,
  value: unknown,
  scope: BlobScope,
): Promise<EncryptedBlob> {
  const keyId = keyring.newestId;
  const key = keyring.key(keyId);
  if (!key) throw new Error("The keyring has no newest key");
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const plaintext = new TextEncoder().encode(JSON.stringify(value));
  const ciphertext = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: additionalData(scope, keyId) },
    key,
    plaintext,
  );
  return { ciphertext: toBase64(new Uint8Array(ciphertext)), iv: toBase64(iv), keyId };
}

export async function decryptJson<T>(keyring: Keyring, blob: EncryptedBlob, scope: BlobScope): Promise<T> {
  const key = keyring.key(blob.keyId ?? DEFAULT_KEY_ID);
  const what = scope.purpose === "credentials" ? "credentials" : "vendor session";
  if (!key) {
    throw new UnreadableBlobError(
      `The stored ${what} cannot be read: they were encrypted with key "${blob.keyId ?? DEFAULT_KEY_ID}", which is no longer configured`,
    );
  }
  let plaintext: ArrayBuffer;
  try {
    plaintext = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64(blob.iv), additionalData: additionalData(scope, blob.keyId) },
      key,
      fromBase64(blob.ciphertext),
    );
  } catch {
    throw new UnreadableBlobError(
      `The stored ${what} cannot be read: the encryption key changed, or they belong to another connection`,
    );
  }
  return JSON.parse(new TextDecoder().decode(plaintext)) as T;
}
