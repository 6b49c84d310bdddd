#!/usr/bin/env node
// `npm run typecheck`: every TypeScript project (the API, the worker's tests and sandbox, web, node
// tooling), each reported even when an earlier one fails. The solution tsconfig.json only lists
// them for editors.
//
// tsconfig.api.json is the server's code (worker/, schema/): it writes its declarations to
// node_modules/.cache/tsc/api (with an incremental build file beside them), even when it has
// errors, and the worker's tests and the client reference it. The client reads the API's types
// (AppType of worker/app.ts) from them, so the API project is checked first.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { root } from "./lib/wrangler.mjs";

const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
const failed = [];
for (const config of [
  "tsconfig.api.json",
  "tsconfig.worker.json",
  "tsconfig.web.json",
  "tsconfig.node.json",
]) {
  const args = config === "tsconfig.api.json" ? ["-p", config] : ["--noEmit", "-p", config];
  console.log(`▶ tsc ${args.join(" ")}`);
  const result = spawnSync(process.execPath, [tsc, ...args], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) failed.push(config);
}
if (failed.length > 0) {
  console.log(`✖ type errors in ${failed.join(", ")}`);
  process.exit(1);
}
