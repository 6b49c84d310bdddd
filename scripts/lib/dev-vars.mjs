// Development secrets live in .dev.vars (git-ignored), generated on first start when absent.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "./wrangler.mjs";

const generators = {
  JWT_SECRET: () => randomBytes(48).toString("base64url"),
  // The credentials keyring, `id:base64` pairs oldest first; `npm run credentials:rotate` adds keys.
  CREDENTIALS_KEYS: () => `${new Date().toISOString().slice(0, 10)}:${randomBytes(32).toString("base64")}`,
};

export function ensureDevVars(file = path.join(root, ".dev.vars")) {
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  const present = new Set(
    current
      .split("\n")
      .map((line) => line.split("=")[0]?.trim())
      .filter(Boolean),
  );
  // A .dev.vars from before the keyring keeps its single CREDENTIALS_KEY (read as the key `default`).
  if (present.has("CREDENTIALS_KEY")) present.add("CREDENTIALS_KEYS");
  const missing = Object.keys(generators).filter((name) => !present.has(name));
  if (missing.length === 0) return [];
  const lines = missing.map((name) => `${name}=${generators[name]()}`);
  const prefix = current && !current.endsWith("\n") ? "\n" : "";
  writeFileSync(file, `${current}${prefix}${lines.join("\n")}\n`, { mode: 0o600 });
  return missing;
}
