// Development secrets live in .dev.vars (git-ignored), generated on first start when absent.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "./wrangler.mjs";

const generators = {
  JWT_SECRET: () => randomBytes(48).toString("base64url"),
  CREDENTIALS_KEY: () => randomBytes(32).toString("base64"),
};

export function ensureDevVars(file = path.join(root, ".dev.vars")) {
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  const present = new Set(
    current
      .split("\n")
      .map((line) => line.split("=")[0]?.trim())
      .filter(Boolean),
  );
  const missing = Object.keys(generators).filter((name) => !present.has(name));
  if (missing.length === 0) return [];
  const lines = missing.map((name) => `${name}=${generators[name]()}`);
  const prefix = current && !current.endsWith("\n") ? "\n" : "";
  writeFileSync(file, `${current}${prefix}${lines.join("\n")}\n`, { mode: 0o600 });
  return missing;
}
