// `npm run credentials:rotate [-- --remote] [--persist-to DIR]`
// Re-encrypts every stored provider credential and vendor session under the newest key of
// CREDENTIALS_KEYS (taken from the environment, else from .dev.vars for the local database).
// Rotating: add a new `id:key` at the end of CREDENTIALS_KEYS, deploy, run this, then drop the old key.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { resealed } from "../worker/lib/connection-secrets";
import { UnreadableBlobError } from "../worker/lib/credentials-crypto";
import { loadKeyring } from "../worker/lib/credentials-keyring";
// @ts-expect-error: plain JavaScript helper shared with the start script.
import { root, runWrangler } from "./lib/wrangler.mjs";

const { values } = parseArgs({
  options: {
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** The keyring settings: the environment first, then the local .dev.vars. */
function keySettings(): { CREDENTIALS_KEYS?: string; CREDENTIALS_KEY?: string } {
  if (process.env.CREDENTIALS_KEYS || process.env.CREDENTIALS_KEY) {
    return { CREDENTIALS_KEYS: process.env.CREDENTIALS_KEYS, CREDENTIALS_KEY: process.env.CREDENTIALS_KEY };
  }
  if (values.remote) fail("Set CREDENTIALS_KEYS in the environment to the value the deployed worker has.");
  let text = "";
  try {
    text = readFileSync(path.join(root, ".dev.vars"), "utf8");
  } catch {
    fail("No CREDENTIALS_KEYS in the environment and no .dev.vars: nothing to rotate with.");
  }
  const settings: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^\s*(CREDENTIALS_KEYS?)\s*=\s*(.*?)\s*$/.exec(line);
    if (match?.[1] && match[2] !== undefined) settings[match[1]] = match[2].replace(/^"(.*)"$/, "$1");
  }
  return settings;
}

interface Row {
  id: string;
  org_id: string;
  credentials_ciphertext: string;
  credentials_iv: string;
  credentials_key_id: string | null;
  session_ciphertext: string | null;
  session_iv: string | null;
  session_key_id: string | null;
}

const sqlText = (value: string | null) => (value === null ? "NULL" : `'${value.replaceAll("'", "''")}'`);
const target = values.remote ? ["--remote"] : ["--local"];
const persist = values["persist-to"] ? ["--persist-to", values["persist-to"]] : [];

let keyring: Awaited<ReturnType<typeof loadKeyring>>;
try {
  keyring = await loadKeyring(keySettings());
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}

runWrangler(["d1", "migrations", "apply", "DB", ...target, ...persist], { quiet: true });
const listed = runWrangler(
  [
    "d1",
    "execute",
    "DB",
    ...target,
    ...persist,
    "--json",
    "--command",
    "SELECT id, org_id, credentials_ciphertext, credentials_iv, credentials_key_id, session_ciphertext, session_iv, session_key_id FROM provider_connections ORDER BY id",
  ],
  { quiet: true },
);
const rows = ((JSON.parse(listed.stdout) as { results: Row[] }[])[0]?.results ?? []) as Row[];

const updates: string[] = [];
const unreadable: string[] = [];
let current = 0;
for (const row of rows) {
  const sessionCurrent = row.session_ciphertext === null || row.session_key_id === keyring.newestId;
  if (row.credentials_key_id === keyring.newestId && sessionCurrent) {
    current++;
    continue;
  }
  try {
    const next = await resealed(keyring, {
      id: row.id,
      orgId: row.org_id,
      credentialsCiphertext: row.credentials_ciphertext,
      credentialsIv: row.credentials_iv,
      credentialsKeyId: row.credentials_key_id,
      sessionCiphertext: row.session_ciphertext,
      sessionIv: row.session_iv,
      sessionKeyId: row.session_key_id,
    });
    // Guarded by the ciphertext read: credentials saved meanwhile are already under the newest key.
    updates.push(
      `UPDATE provider_connections SET credentials_ciphertext = ${sqlText(next.credentialsCiphertext)}, credentials_iv = ${sqlText(next.credentialsIv)}, credentials_key_id = ${sqlText(next.credentialsKeyId)}, session_ciphertext = ${sqlText(next.sessionCiphertext)}, session_iv = ${sqlText(next.sessionIv)}, session_key_id = ${sqlText(next.sessionKeyId)} WHERE id = ${sqlText(row.id)} AND credentials_ciphertext = ${sqlText(row.credentials_ciphertext)};`,
    );
  } catch (error) {
    if (!(error instanceof UnreadableBlobError)) throw error;
    unreadable.push(`${row.id}: ${error.message}`);
  }
}

if (updates.length > 0) {
  const dir = mkdtempSync(path.join(tmpdir(), "sunfleet-rotate-"));
  try {
    const file = path.join(dir, "rotate.sql");
    writeFileSync(file, `${updates.join("\n")}\n`);
    runWrangler(["d1", "execute", "DB", ...target, ...persist, "--file", file], { quiet: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  `Re-encrypted ${updates.length} connection(s) under key "${keyring.newestId}"; ${current} already used it.`,
);
if (unreadable.length > 0) {
  console.log(`${unreadable.length} connection(s) could not be read and need their credentials saved again:`);
  for (const line of unreadable) console.log(`  ${line}`);
}
