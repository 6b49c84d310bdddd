#!/usr/bin/env node
// `npm start`: build the client, migrate the local D1, and serve SPA + API + /ws + cron on one port.
//   --no-build          skip the Vite build (dist/ already fresh)
//   --port N            listen port (default 8787, or $PORT)
//   --persist-to DIR    local storage directory (default .wrangler/state)
import { spawnSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { ensureDevVars } from "./lib/dev-vars.mjs";
import { root, runWrangler, spawnWrangler } from "./lib/wrangler.mjs";

const { values } = parseArgs({
  options: {
    "no-build": { type: "boolean", default: false },
    port: { type: "string", default: process.env.PORT ?? "8787" },
    "inspector-port": { type: "string", default: process.env.INSPECTOR_PORT ?? "9230" },
    "persist-to": { type: "string" },
  },
});

const generated = ensureDevVars();
if (generated.length > 0) console.log(`Generated development secrets in .dev.vars: ${generated.join(", ")}`);

if (!values["no-build"]) {
  const vite = path.join(root, "node_modules", "vite", "bin", "vite.js");
  const build = spawnSync(process.execPath, [vite, "build", "--logLevel", "warn"], {
    cwd: root,
    stdio: "inherit",
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const persist = values["persist-to"] ? ["--persist-to", values["persist-to"]] : [];
runWrangler(["d1", "migrations", "apply", "DB", "--local", ...persist], { quiet: true });

const dev = spawnWrangler([
  "dev",
  "--local",
  "--ip",
  "127.0.0.1",
  "--port",
  values.port,
  "--inspector-port",
  values["inspector-port"],
  "--test-scheduled",
  "--show-interactive-dev-session=false",
  ...persist,
]);
console.log(`Sunfleet is starting on http://127.0.0.1:${values.port}`);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));
