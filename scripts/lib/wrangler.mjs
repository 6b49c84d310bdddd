// Runs wrangler without touching the network: no metrics, no error reports, no cf fetch.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");
const wranglerBin = path.join(root, "node_modules", "wrangler", "bin", "wrangler.js");

export const offlineEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
  CI: "true",
  NO_UPDATE_NOTIFIER: "1",
};

export function runWrangler(args, options = {}) {
  const result = spawnSync(process.execPath, [wranglerBin, ...args], {
    cwd: root,
    env: offlineEnv,
    stdio: options.quiet ? "pipe" : "inherit",
    encoding: "utf8",
  });
  if (result.status !== 0) {
    if (options.quiet) process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
    throw new Error(`wrangler ${args.join(" ")} exited with ${result.status}`);
  }
  return result;
}

export function spawnWrangler(args, options = {}) {
  return spawn(process.execPath, [wranglerBin, ...args], {
    cwd: root,
    env: { ...offlineEnv, ...options.env },
    stdio: options.stdio ?? "inherit",
    detached: options.detached ?? false,
  });
}
