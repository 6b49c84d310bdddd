// `npm run admin:create -- --email ops@example.com [--name "Ops"] [--password ...] [--remote] [--persist-to DIR]`
// Creates a platform superAdmin. This is the only way one comes to exist: no API creates them.
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { passwordSchema } from "../schema/api/auth";
import { emailSchema } from "../schema/api/common";
import { hashPassword } from "../worker/lib/password";
// @ts-expect-error: plain JavaScript helper shared with the start script.
import { runWrangler } from "./lib/wrangler.mjs";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    name: { type: "string", default: "Platform Administrator" },
    password: { type: "string", default: process.env.ADMIN_PASSWORD },
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const email = emailSchema.safeParse(values.email ?? "");
if (!email.success) fail("Give a valid --email for the new superAdmin.");
const password = passwordSchema.safeParse(values.password ?? "");
if (!password.success) {
  fail("Give a password of 8 to 128 characters with --password or the ADMIN_PASSWORD environment variable.");
}

const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;
const hash = await hashPassword(password.data);
const insert = `INSERT INTO users (id, email, full_name, password_hash, password_salt, password_iterations, org_id, role, permissions, created_at) VALUES (${[
  sqlText(randomUUID()),
  sqlText(email.data),
  sqlText(values.name ?? "Platform Administrator"),
  sqlText(hash.hash),
  sqlText(hash.salt),
  String(hash.iterations),
  "NULL",
  sqlText("superAdmin"),
  "NULL",
  String(Date.now()),
].join(", ")})`;

const target = values.remote ? ["--remote"] : ["--local"];
const persist = values["persist-to"] ? ["--persist-to", values["persist-to"]] : [];
runWrangler(["d1", "migrations", "apply", "DB", ...target, ...persist], { quiet: true });
try {
  runWrangler(["d1", "execute", "DB", ...target, ...persist, "--command", insert], { quiet: true });
} catch {
  fail(`Could not create the superAdmin: an account for ${email.data} may already exist.`);
}
console.log(`Created superAdmin ${email.data}.`);
