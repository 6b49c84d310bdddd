#!/usr/bin/env node
// `npm test`: typecheck, lint, build, then every vitest project (worker in workerd, web in jsdom,
// node checks, browser end-to-end). The last line is the plain count `N passed, M failed`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { root } from "./lib/wrangler.mjs";

const bin = (pkg, file) => path.join(root, "node_modules", pkg, file);
const resultsDir = path.join(root, "test-results");
mkdirSync(resultsDir, { recursive: true });

let passed = 0;
let failed = 0;

function step(name, args) {
  console.log(`\n▶ ${name}`);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
  if (result.status === 0) passed++;
  else {
    failed++;
    console.log(`✖ ${name} failed (exit ${result.status})`);
  }
  return result.status === 0;
}

for (const config of ["tsconfig.worker.json", "tsconfig.web.json", "tsconfig.node.json"]) {
  step(`typecheck ${config}`, [bin("typescript", "bin/tsc"), "-p", config]);
}
step("lint (biome)", [bin("@biomejs/biome", "bin/biome"), "check", "."]);
const built = step("build client (vite)", [bin("vite", "bin/vite.js"), "build", "--logLevel", "warn"]);

const report = path.join(resultsDir, "vitest.json");
rmSync(report, { force: true });
console.log("\n▶ vitest (worker, web, node, e2e)");
const projects = [
  "--project",
  "worker",
  "--project",
  "web",
  "--project",
  "node",
  ...(built ? ["--project", "e2e"] : []),
];
spawnSync(
  process.execPath,
  [
    bin("vitest", "vitest.mjs"),
    "run",
    ...projects,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
  ],
  { cwd: root, stdio: "inherit" },
);
if (existsSync(report)) {
  const summary = JSON.parse(readFileSync(report, "utf8"));
  passed += summary.numPassedTests;
  failed += summary.numFailedTests;
  // A file that fails to load runs no tests but is still a failure.
  const brokenFiles = summary.testResults.filter(
    (file) => file.status === "failed" && file.assertionResults.length === 0,
  );
  failed += brokenFiles.length;
} else {
  failed++;
  console.log("✖ vitest produced no report");
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
