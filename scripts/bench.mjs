#!/usr/bin/env node
// `npm run bench`: performance reports inside workerd (never part of `npm test`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "./lib/wrangler.mjs";

// The assets binding needs a client build directory to exist.
const dist = path.join(root, "dist");
if (!existsSync(path.join(dist, "index.html"))) {
  mkdirSync(dist, { recursive: true });
  writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>Sunfleet</title>");
}
const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");
const result = spawnSync(process.execPath, [vitest, "run", "--project", "bench", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
});
process.exit(result.status ?? 1);
