#!/usr/bin/env node
// `npm start`: build the client, migrate the local D1, and serve SPA + API + /ws + cron on one port.
//   --no-build          skip the Vite build (dist/ already fresh)
//   --port N            listen port (default 8787, or $PORT)
//   --persist-to DIR    local storage directory (default .wrangler/state)
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { tsImport } from "tsx/esm/api";
import { ensureDevVars } from "./lib/dev-vars.mjs";
import { root, runWrangler, spawnWrangler } from "./lib/wrangler.mjs";

const { values } = parseArgs({
  options: {
    "no-build": { type: "boolean", default: false },
    port: { type: "string", default: process.env.PORT ?? "8787" },
    "inspector-port": { type: "string", default: process.env.INSPECTOR_PORT ?? "9230" },
    "persist-to": { type: "string" },
    "sandbox-port": { type: "string", default: process.env.SANDBOX_PORT ?? "8788" },
    "no-sandbox": { type: "boolean", default: false },
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

// The provider sandbox stands in for the vendor clouds locally; production never points at it.
// With --no-sandbox, URL variables set in the environment still reach the worker (a benchmark's
// own sandbox, a real vendor).
let sandbox;
const sandboxVars = [];
// The variables derive from the provider registrations (schema/provider-registry.ts).
const { passedThrough, sandboxVariables } = await tsImport("./lib/sandbox-env.ts", import.meta.url);
if (values["no-sandbox"]) {
  for (const [name, url] of Object.entries(process.env)) {
    if (passedThrough(name) && url) sandboxVars.push("--var", `${name}:${url}`);
  }
} else {
  const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
  sandbox = spawn(process.execPath, [tsx, "scripts/sandbox-server.ts", "--port", values["sandbox-port"]], {
    cwd: root,
    stdio: "inherit",
  });
  const urls = sandboxVariables(
    `http://127.0.0.1:${values["sandbox-port"]}`,
    `http://127.0.0.1:${values.port}`,
  );
  for (const [name, url] of Object.entries(urls)) {
    // An explicit environment variable wins, so a real vendor can be tried locally.
    sandboxVars.push("--var", `${name}:${process.env[name] ?? url}`);
  }
}

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
  ...sandboxVars,
]);
console.log(`Sunfleet is starting on http://127.0.0.1:${values.port}`);
if (sandbox) console.log(`Caught e-mail: http://127.0.0.1:${values["sandbox-port"]}/mail`);
void runCronOnTheClock(`http://127.0.0.1:${values.port}`);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    dev.kill(signal);
    sandbox?.kill(signal);
  });
}
dev.on("exit", (code) => {
  sandbox?.kill("SIGTERM");
  process.exit(code ?? 0);
});

// The cron schedules wrangler.toml declares; each must run every N minutes ("*/N * * * *").
function cronSchedules() {
  const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
  const list = /^crons\s*=\s*\[(.*)\]/m.exec(toml)?.[1] ?? "";
  return [...list.matchAll(/"([^"]+)"/g)].map(([, cron]) => {
    const minutes = /^\*\/(\d+) \* \* \* \*$/.exec(cron)?.[1];
    if (!minutes) throw new Error(`scripts/start.mjs runs only "*/N * * * *" crons locally, not "${cron}"`);
    return { cron, everyMs: Number(minutes) * 60_000 };
  });
}

/**
 * Local workerd never fires cron triggers by itself ("Miniflare does not currently trigger scheduled
 * Workers automatically"), so this process does, on the clock as Cloudflare would: once as soon as
 * the server answers (which also moves fleet data an earlier version kept in D1 into the
 * organisations' fleet stores), then at every boundary of each schedule.
 */
async function runCronOnTheClock(origin) {
  const fire = (cron) =>
    fetch(`${origin}/__scheduled?cron=${encodeURIComponent(cron)}`).catch((error) =>
      console.error(`Cron ${cron} could not reach the server: ${error.message}`),
    );
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      const health = await fetch(`${origin}/api/health`);
      if (health.ok && (await health.text()).includes('"ok"')) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  for (const { cron, everyMs } of cronSchedules()) {
    await fire(cron);
    const tick = () => {
      setTimeout(
        () => {
          void fire(cron);
          tick();
        },
        everyMs - (Date.now() % everyMs),
      );
    };
    tick();
  }
}
