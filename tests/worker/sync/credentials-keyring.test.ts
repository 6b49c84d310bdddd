import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import { openCredentials, resealed, sealCredentials } from "../../../worker/lib/connection-secrets";
import { loadKeyring, parseKeyring } from "../../../worker/lib/credentials-keyring";
import { createDb } from "../../../worker/lib/db";
import { syncConnection } from "../../../worker/sync/sync-connection";
import { call, expectStatus, registerOwner, type TestUser } from "../helpers";

const solis = sandboxAccounts.solis[0];
const fronius = sandboxAccounts.fronius[0];
const sandbox = createSandbox();

/** The keys vitest.config.ts configures: 2026-01 (older), then 2026-07 (newest). */
const [OLDER, NEWEST] = parseKeyring(env);
if (!OLDER || !NEWEST) throw new Error("the test config lists two credentials keys");
const ROTATED_AWAY = `2027-01:${btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => 200 + (i % 50))))}`;

const syncWith = (keys: string, connectionId: string) =>
  syncConnection(
    {
      db: createDb(env.DB),
      env: { ...env, CREDENTIALS_KEYS: keys },
      now: () => Date.now(),
      fetch: async (request: Request) => sandbox.fetch(request),
    },
    connectionId,
    "manual",
  );

interface ConnectionRow {
  id: string;
  org_id: string;
  credentials_ciphertext: string;
  credentials_iv: string;
  credentials_key_id: string | null;
  status: string;
  last_error: string | null;
  next_sync_at: number | null;
}

const connectionOf = (orgId: string, provider = "solis") =>
  env.DB.prepare("SELECT * FROM provider_connections WHERE org_id = ? AND provider = ?")
    .bind(orgId, provider)
    .first<ConnectionRow>();

async function saveSolis(owner: TestUser): Promise<ConnectionRow> {
  await expectStatus(
    await call("/api/credentials", {
      method: "POST",
      token: owner.token,
      body: { provider: "solis", credentials: { keyId: solis.keyId, keySecret: solis.keySecret } },
    }),
    201,
  );
  const row = await connectionOf(owner.orgId);
  if (!row) throw new Error("no connection stored");
  return row;
}

const writeCredentials = (
  row: ConnectionRow,
  blob: { ciphertext: string; iv: string; keyId: string | null },
) =>
  env.DB.prepare(
    "UPDATE provider_connections SET credentials_ciphertext = ?, credentials_iv = ?, credentials_key_id = ? WHERE id = ?",
  )
    .bind(blob.ciphertext, blob.iv, blob.keyId, row.id)
    .run();

describe("the credentials keyring", () => {
  it("writes new credentials with the newest key and names it on the row", async () => {
    const owner = await registerOwner();
    const row = await saveSolis(owner);
    expect(row.credentials_key_id).toBe(NEWEST.id);
    expect(row.status).toBe("active");
  });

  it("keeps reading a row written with an older key that is still listed", async () => {
    const owner = await registerOwner();
    const row = await saveSolis(owner);
    const older = await loadKeyring({ CREDENTIALS_KEYS: `${OLDER.id}:${OLDER.secret}` });
    const sealed = await sealCredentials(older, row.org_id, row.id, {
      keyId: solis.keyId,
      keySecret: solis.keySecret,
    });
    expect(sealed.credentialsKeyId).toBe(OLDER.id);
    await writeCredentials(row, {
      ciphertext: sealed.credentialsCiphertext,
      iv: sealed.credentialsIv,
      keyId: sealed.credentialsKeyId,
    });
    const result = await syncWith(`${OLDER.id}:${OLDER.secret},${NEWEST.id}:${NEWEST.secret}`, row.id);
    expect(result.status, JSON.stringify(result)).toBe("success");
  });

  it("marks the connection 'needs attention' with a plain reason once its key is no longer configured", async () => {
    const owner = await registerOwner();
    const row = await saveSolis(owner);
    const result = await syncWith(ROTATED_AWAY, row.id);
    expect(result).toMatchObject({ status: "failed", errorKind: "unreadable_credentials" });
    const after = await connectionOf(owner.orgId);
    expect(after?.status).toBe("needs_attention");
    expect(after?.next_sync_at).toBeNull();
    expect(after?.last_error).toBe(
      `The stored credentials cannot be read: they were encrypted with key "${NEWEST.id}", which is no longer configured. Save the SolisCloud credentials again.`,
    );
    const listed = await expectStatus<{ status: string; lastError: string }[]>(
      await call("/api/credentials", { token: owner.token }),
      200,
    );
    expect(listed[0]).toMatchObject({ status: "needs_attention", lastError: after?.last_error });
  });

  it("refuses one connection's blob copied into another connection's row, even in the same organisation", async () => {
    const owner = await registerOwner();
    const solisRow = await saveSolis(owner);
    await expectStatus(
      await call("/api/credentials", {
        method: "POST",
        token: owner.token,
        body: {
          provider: "fronius",
          credentials: { accessKeyId: fronius.accessKeyId, accessKeyValue: fronius.accessKeyValue },
        },
      }),
      201,
    );
    const froniusRow = await connectionOf(owner.orgId, "fronius");
    if (!froniusRow) throw new Error("no fronius connection");
    await writeCredentials(solisRow, {
      ciphertext: froniusRow.credentials_ciphertext,
      iv: froniusRow.credentials_iv,
      keyId: froniusRow.credentials_key_id,
    });
    const result = await syncWith(`${OLDER.id}:${OLDER.secret},${NEWEST.id}:${NEWEST.secret}`, solisRow.id);
    expect(result).toMatchObject({ status: "failed", errorKind: "unreadable_credentials" });
    expect((await connectionOf(owner.orgId))?.last_error).toMatch(/belong to another connection/);
  });

  it("refuses a blob bound to the vendor session read as the credentials", async () => {
    const owner = await registerOwner();
    const row = await saveSolis(owner);
    const keyring = await loadKeyring(env);
    const { encryptJson } = await import("../../../worker/lib/credentials-crypto");
    const asSession = await encryptJson(
      keyring,
      { keyId: solis.keyId, keySecret: solis.keySecret },
      { orgId: row.org_id, connectionId: row.id, purpose: "session" },
    );
    await writeCredentials(row, asSession);
    const after = await connectionOf(owner.orgId);
    if (!after) throw new Error("row gone");
    await expect(
      openCredentials(keyring, {
        id: after.id,
        orgId: after.org_id,
        credentialsCiphertext: after.credentials_ciphertext,
        credentialsIv: after.credentials_iv,
        credentialsKeyId: after.credentials_key_id,
        sessionCiphertext: null,
        sessionIv: null,
        sessionKeyId: null,
      }),
    ).rejects.toThrow(/cannot be read/);
  });

  it("re-encrypts a row of the older key and of the single-key format under the newest key", async () => {
    const owner = await registerOwner();
    const row = await saveSolis(owner);
    const value = { keyId: solis.keyId, keySecret: solis.keySecret };
    // A row from before the keyring: the single CREDENTIALS_KEY (read as "default"), bound to the organisation only.
    const legacyKey = await crypto.subtle.importKey(
      "raw",
      Uint8Array.from(atob(OLDER.secret), (c) => c.charCodeAt(0)),
      "AES-GCM",
      false,
      ["encrypt"],
    );
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const legacy = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(row.org_id) },
        legacyKey,
        new TextEncoder().encode(JSON.stringify(value)),
      ),
    );
    const rows = {
      id: row.id,
      orgId: row.org_id,
      credentialsCiphertext: btoa(String.fromCharCode(...legacy)),
      credentialsIv: btoa(String.fromCharCode(...iv)),
      credentialsKeyId: null,
      sessionCiphertext: null,
      sessionIv: null,
      sessionKeyId: null,
    };
    const migrating = await loadKeyring({
      CREDENTIALS_KEYS: `default:${OLDER.secret},${NEWEST.id}:${NEWEST.secret}`,
    });
    const next = await resealed(migrating, rows);
    expect(next.credentialsKeyId).toBe(NEWEST.id);
    const newestOnly = await loadKeyring({ CREDENTIALS_KEYS: `${NEWEST.id}:${NEWEST.secret}` });
    expect(await openCredentials(newestOnly, { ...rows, ...next })).toEqual(value);
  });

  it("refuses a malformed keyring with 503 rather than writing under a bad key", async () => {
    for (const keys of [
      "no-separator",
      `bad id!:${NEWEST.secret}`,
      "short:c2hvcnQ=",
      `same:${NEWEST.secret},same:${OLDER.secret}`,
    ]) {
      await expect(loadKeyring({ CREDENTIALS_KEYS: keys }), keys).rejects.toMatchObject({ status: 503 });
    }
    await expect(loadKeyring({})).rejects.toMatchObject({ status: 503 });
  });
});
