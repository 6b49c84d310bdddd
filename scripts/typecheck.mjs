#!/usr/bin/env node
// `npm run typecheck`: every TypeScript project (worker, web, node tooling), each reported even
// when an earlier one fails. The solution tsconfig.json only lists them for editors.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { root } from "./lib/wrangler.mjs";

const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
const failed = [];
for (const config of ["tsconfig.worker.json", "tsconfig.web.json", "tsconfig.node.json"]) {
  console.log(`▶ tsc --noEmit -p ${config}`);
  const result = spawnSync(process.execPath, [tsc, "--noEmit", "-p", config], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) failed.push(config);
}
if (failed.length > 0) {
  console.log(`✖ type errors in ${failed.join(", ")}`);
  process.exit(1);
}
