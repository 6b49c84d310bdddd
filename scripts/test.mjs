#!/usr/bin/env node
// `npm test`: typecheck, lint, build, then every vitest project (worker in workerd, web in jsdom,
// node checks, browser end-to-end). The last line is the plain count `N passed, M failed`.
//
// The client is built first, alone (the worker serves dist/, e2e loads it). Then the steps overlap:
// typecheck and lint run beside the jsdom and node tests (nothing depends on them), and the browser
// suite beside the worker tests, whose files spend much of their time starting a runtime each.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { root } from "./lib/wrangler.mjs";

const bin = (pkg, file) => path.join(root, "node_modules", pkg, file);
const resultsDir = path.join(root, "test-results");
mkdirSync(resultsDir, { recursive: true });
/** Written by a failed browser test (tests/e2e/helpers.ts). */
const failedPagesFile = path.join(resultsDir, "e2e-failed-pages.txt");
rmSync(failedPagesFile, { force: true });

let passed = 0;
let failed = 0;

/**
 * Runs one step. A step running beside others has its output held and printed in one piece when it
 * ends, so logs do not interleave; `inherit` streams it (vitest, the one long step).
 */
function step(name, args, { inherit = false } = {}) {
  const startedMs = Date.now();
  if (inherit) console.log(`\n▶ ${name}`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: inherit ? "inherit" : ["ignore", "pipe", "pipe"],
    });
    const output = [];
    child.stdout?.on("data", (chunk) => output.push(chunk));
    child.stderr?.on("data", (chunk) => output.push(chunk));
    child.on("close", (code) => {
      const seconds = ((Date.now() - startedMs) / 1000).toFixed(0);
      if (!inherit) {
        console.log(`\n▶ ${name} (${seconds} s)`);
        const text = Buffer.concat(output).toString().trimEnd();
        if (text) console.log(text);
      }
      resolve(code);
    });
  });
}

/** A check that counts as one passed or failed test. */
async function check(name, args) {
  const code = await step(name, args);
  if (code === 0) passed++;
  else {
    failed++;
    console.log(`✖ ${name} failed (exit ${code})`);
  }
  return code === 0;
}

const built = await check("build client (vite)", [bin("vite", "bin/vite.js"), "build", "--logLevel", "warn"]);
const typecheck = (config) => check(`typecheck ${config}`, [bin("typescript", "bin/tsc"), "-p", config]);
// The worker's tests and the client read the server's types from the API project's declarations
// (scripts/typecheck.mjs): they are checked once it has written them.
const apiTypes = typecheck("tsconfig.api.json");
const checks = [
  apiTypes,
  apiTypes.then(() => typecheck("tsconfig.worker.json")),
  apiTypes.then(() => typecheck("tsconfig.web.json")),
  typecheck("tsconfig.node.json"),
  check("lint (biome)", [bin("@biomejs/biome", "bin/biome"), "check", "."]),
];

/** One vitest run; its JSON report feeds the count. */
function vitest(name, projects, reportName, options) {
  const report = path.join(resultsDir, reportName);
  rmSync(report, { force: true });
  const args = [
    bin("vitest", "vitest.mjs"),
    "run",
    ...projects.flatMap((project) => ["--project", project]),
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
  ];
  return step(name, args, options).then((code) => ({ name, report, code }));
}

// The browser suite runs beside the worker tests, not the jsdom ones: beside it, on two cores, the
// jsdom tests' first renders (which load lazy chunks) outran their waits. Its output is held and
// printed in one piece when it ends.
const jsdomRun = await vitest("vitest (web, node)", ["web", "node"], "vitest-web.json", { inherit: true });
const [workerRun, e2eRun] = await Promise.all([
  vitest("vitest (worker)", ["worker", "worker-shared", "worker-fixture"], "vitest-worker.json", {
    inherit: true,
  }),
  built ? vitest("vitest (e2e)", ["e2e"], "vitest-e2e.json") : null,
]);
await Promise.all(checks);
const runs = [jsdomRun, workerRun, e2eRun].filter((run) => run !== null);

for (const { name, report, code } of runs) {
  if (!existsSync(report)) {
    failed++;
    console.log(`✖ vitest produced no report (${path.basename(report)})`);
    continue;
  }
  const summary = JSON.parse(readFileSync(report, "utf8"));
  passed += summary.numPassedTests;
  failed += summary.numFailedTests;
  // A file that fails to load runs no tests but is still a failure.
  const brokenFiles = summary.testResults.filter(
    (file) => file.status === "failed" && file.assertionResults.length === 0,
  );
  failed += brokenFiles.length;
  // Errors outside any test (an unhandled rejection, a timer firing after its file ended) fail the
  // run without failing a test: they count as one failure.
  if (code !== 0 && summary.numFailedTests === 0 && brokenFiles.length === 0) {
    failed++;
    console.log(`✖ ${name} exited with ${code}: errors outside the tests (see its output)`);
  }
}

// The failures again, last, where a log cut to its tail still shows them: each failed test's name
// and the start of its error, and where a failed browser test's pages stood.
for (const { report } of runs) {
  if (!existsSync(report)) continue;
  for (const file of JSON.parse(readFileSync(report, "utf8")).testResults) {
    for (const test of file.assertionResults.filter((result) => result.status === "failed")) {
      const message = test.failureMessages.join("\n").split("\n").slice(0, 6).join("\n    ");
      console.log(`✖ ${path.relative(root, file.name)} > ${test.fullName}\n    ${message}`);
    }
  }
}
if (existsSync(failedPagesFile)) console.log(readFileSync(failedPagesFile, "utf8"));

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
