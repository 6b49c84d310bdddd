import type { ProviderConnectionRow } from "../../schema/tables";
import { decryptJson, encryptJson, UnreadableBlobError } from "./credentials-crypto";
import type { Keyring } from "./credentials-keyring";

/** The columns of a connection row that hold its two encrypted values. */
type ConnectionSecrets = Pick<
  ProviderConnectionRow,
  | "id"
  | "orgId"
  | "credentialsCiphertext"
  | "credentialsIv"
  | "credentialsKeyId"
  | "sessionCiphertext"
  | "sessionIv"
  | "sessionKeyId"
>;

const scope = (orgId: string, connectionId: string, purpose: "credentials" | "session") => ({
  orgId,
  connectionId,
  purpose,
});

export async function sealCredentials(keyring: Keyring, orgId: string, connectionId: string, value: unknown) {
  const blob = await encryptJson(keyring, value, scope(orgId, connectionId, "credentials"));
  return { credentialsCiphertext: blob.ciphertext, credentialsIv: blob.iv, credentialsKeyId: blob.keyId };
}

/** The decrypted credential values; throws UnreadableBlobError with a plain reason when they cannot be read. */
export function openCredentials(keyring: Keyring, row: ConnectionSecrets): Promise<unknown> {
  return decryptJson(
    keyring,
    { ciphertext: row.credentialsCiphertext, iv: row.credentialsIv, keyId: row.credentialsKeyId },
    scope(row.orgId, row.id, "credentials"),
  );
}

export async function sealSession(
  keyring: Keyring,
  row: ConnectionSecrets,
  value: Record<string, unknown> | null,
) {
  if (value === null) return { sessionCiphertext: null, sessionIv: null, sessionKeyId: null };
  const blob = await encryptJson(keyring, value, scope(row.orgId, row.id, "session"));
  return { sessionCiphertext: blob.ciphertext, sessionIv: blob.iv, sessionKeyId: blob.keyId };
}

/** The stored vendor session, or null when there is none or it no longer reads (it is simply fetched again). */
export async function openSession(
  keyring: Keyring,
  row: ConnectionSecrets,
): Promise<Record<string, unknown> | null> {
  if (!row.sessionCiphertext || !row.sessionIv) return null;
  try {
    return await decryptJson<Record<string, unknown>>(
      keyring,
      { ciphertext: row.sessionCiphertext, iv: row.sessionIv, keyId: row.sessionKeyId },
      scope(row.orgId, row.id, "session"),
    );
  } catch (error) {
    if (error instanceof UnreadableBlobError) return null;
    throw error;
  }
}

/**
 * The row's values re-encrypted under the keyring's newest key (the rotation command); a
 * session that no longer reads is dropped, credentials that no longer read throw.
 */
export async function resealed(keyring: Keyring, row: ConnectionSecrets) {
  const credentials = await openCredentials(keyring, row);
  const session = await openSession(keyring, row);
  return {
    ...(await sealCredentials(keyring, row.orgId, row.id, credentials)),
    ...(await sealSession(keyring, row, session)),
  };
}
