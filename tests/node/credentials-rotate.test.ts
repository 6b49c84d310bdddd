import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  openCredentials,
  openSession,
  sealCredentials,
  sealSession,
} from "../../worker/lib/connection-secrets";
import { loadKeyring } from "../../worker/lib/credentials-keyring";

const root = path.resolve(import.meta.dirname, "../..");
const persistDir = mkdtempSync(path.join(tmpdir(), "sunfleet-rotate-test-"));
const offline = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  CI: "true",
};

const key = (seed: number) =>
  Buffer.from(Array.from({ length: 32 }, (_, i) => (seed + i) % 256)).toString("base64");
const OLD = `old:${key(1)}`;
const NEW = `new:${key(101)}`;
const GONE = `gone:${key(201)}`;

function wrangler(...args: string[]) {
  const result = spawnSync(
    process.execPath,
    [
      path.join(root, "node_modules/wrangler/bin/wrangler.js"),
      "d1",
      ...args,
      "--local",
      "--persist-to",
      persistDir,
    ],
    { cwd: root, env: offline, encoding: "utf8" },
  );
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

const rotate = (keys: string) =>
  spawnSync(
    process.execPath,
    [
      path.join(root, "node_modules/tsx/dist/cli.mjs"),
      "scripts/credentials-rotate.ts",
      "--persist-to",
      persistDir,
    ],
    { cwd: root, env: { ...offline, CREDENTIALS_KEYS: keys }, encoding: "utf8" },
  );

const sql = (value: string | null) => (value === null ? "NULL" : `'${value}'`);

afterAll(() => rmSync(persistDir, { recursive: true, force: true }));

describe("npm run credentials:rotate", () => {
  it("re-encrypts every credential and session under the newest key, and names what it cannot read", async () => {
    wrangler("migrations", "apply", "DB");
    const old = await loadKeyring({ CREDENTIALS_KEYS: OLD });
    const gone = await loadKeyring({ CREDENTIALS_KEYS: GONE });
    const credentials = { keyId: "1300386381676644416", keySecret: "sandbox-solis-key-secret" };
    const session = { accessToken: "vendor-token" };
    const rows = [
      { id: "conn-old", orgId: "org-1", provider: "solis", keyring: old, session },
      { id: "conn-gone", orgId: "org-1", provider: "fronius", keyring: gone, session: null },
    ];
    const statements = ["INSERT INTO organizations (id, name, created_at) VALUES ('org-1', 'Rotate Co', 0);"];
    for (const row of rows) {
      const sealed = await sealCredentials(row.keyring, row.orgId, row.id, credentials);
      const base = {
        id: row.id,
        orgId: row.orgId,
        ...sealed,
        sessionCiphertext: null,
        sessionIv: null,
        sessionKeyId: null,
      };
      const s = await sealSession(row.keyring, base, row.session);
      statements.push(
        `INSERT INTO provider_connections (id, org_id, provider, credentials_ciphertext, credentials_iv, credentials_key_id, session_ciphertext, session_iv, session_key_id, status, consecutive_failures, created_at, updated_at) VALUES (${[
          sql(row.id),
          sql(row.orgId),
          sql(row.provider),
          sql(sealed.credentialsCiphertext),
          sql(sealed.credentialsIv),
          sql(sealed.credentialsKeyId),
          sql(s.sessionCiphertext),
          sql(s.sessionIv),
          sql(s.sessionKeyId),
          "'active'",
          "0",
          "0",
          "0",
        ].join(", ")});`,
      );
    }
    wrangler("execute", "DB", "--command", statements.join(" "));

    const run = rotate(`${OLD},${NEW}`);
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('Re-encrypted 1 connection(s) under key "new"');
    expect(run.stdout).toMatch(/conn-gone: .*"gone", which is no longer configured/);

    const [{ results }] = JSON.parse(
      wrangler(
        "execute",
        "DB",
        "--json",
        "--command",
        "SELECT id, org_id, credentials_ciphertext, credentials_iv, credentials_key_id, session_ciphertext, session_iv, session_key_id FROM provider_connections WHERE id = 'conn-old'",
      ),
    ) as [{ results: Record<string, string | null>[] }];
    const row = results[0];
    if (!row) throw new Error("row missing");
    expect(row.credentials_key_id).toBe("new");
    expect(row.session_key_id).toBe("new");
    const newestOnly = await loadKeyring({ CREDENTIALS_KEYS: NEW });
    const stored = {
      id: String(row.id),
      orgId: String(row.org_id),
      credentialsCiphertext: String(row.credentials_ciphertext),
      credentialsIv: String(row.credentials_iv),
      credentialsKeyId: row.credentials_key_id ?? null,
      sessionCiphertext: row.session_ciphertext ?? null,
      sessionIv: row.session_iv ?? null,
      sessionKeyId: row.session_key_id ?? null,
    };
    expect(await openCredentials(newestOnly, stored)).toEqual(credentials);
    expect(await openSession(newestOnly, stored)).toEqual(session);

    // Running it again finds nothing left to do.
    const again = rotate(`${OLD},${NEW}`);
    expect(again.stdout).toContain('Re-encrypted 0 connection(s) under key "new"; 1 already used it.');
  }, 180_000);
});
