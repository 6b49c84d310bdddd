import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import react from "@vitejs/plugin-react";
import { type Request as MiniflareRequest, Response as MiniflareResponse } from "miniflare";
import type { Plugin } from "vite";
import { configDefaults, defineConfig } from "vitest/config";
import { createSandbox } from "./sandbox/app.ts";
import { faultVendors, SandboxFaults } from "./sandbox/faults.ts";
import {
  type ProviderRegistration,
  providerRegistrations,
  sandboxUrlVariables,
} from "./schema/provider-registry.ts";
import { providerEmulators as fixtureEmulators } from "./tests/fixtures/providers/emulators.ts";
import { providerRegistrations as fixtureRegistrations } from "./tests/fixtures/providers/provider-list.ts";
import { workerOptimizedDeps } from "./tests/worker-deps.ts";
import { routerPlugin } from "./vite.config.ts";

const root = import.meta.dirname;

/**
 * Every outbound fetch of the worker under test reaches the provider sandbox (offline, deterministic).
 * Test files run side by side in separate runtimes, each with its own VendorBudget objects, against
 * the same sandbox account, so SolisCloud's per-second limit would take two files' calls for one
 * client's and refuse some (in production one budget object per credential spaces them). Its clock
 * therefore puts a second between calls here; the tests of that limit make their own sandbox.
 */
let solisLimitClockMs = 0;
const testSandbox = createSandbox({ clock: () => (solisLimitClockMs += 1000) });
/**
 * The benchmarks' sandbox refuses BENCH_RATE_LIMIT_PERCENT % (5 unless set) of every vendor's calls
 * with the vendor's own rate-limit error, as a busy vendor would.
 */
const benchRateLimitPercent = Number(process.env.BENCH_RATE_LIMIT_PERCENT ?? 5);
const benchFaults = new SandboxFaults();
for (const vendor of faultVendors) benchFaults.rateLimitShare(vendor, benchRateLimitPercent);
const benchSandbox = createSandbox({ faults: benchFaults });

const sandboxOutbound = (sandbox: typeof testSandbox) => async (request: MiniflareRequest) => {
  const body =
    request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
  const answer = await sandbox.fetch(
    new Request(request.url, { method: request.method, headers: Object.fromEntries(request.headers), body }),
  );
  return new MiniflareResponse(await answer.arrayBuffer(), {
    status: answer.status,
    headers: Object.fromEntries(answer.headers),
  });
};
const SANDBOX = "http://sandbox.test";

/** The fleet store's drizzle-kit migrations import .sql files as text (wrangler's `[[rules]]` do the same). */
const sqlAsText = () => ({
  name: "sql-as-text",
  transform(code: string, id: string) {
    return id.endsWith(".sql") ? { code: `export default ${JSON.stringify(code)};`, map: null } : undefined;
  },
});

/**
 * The worker under test inside workerd, with the D1 migrations and the sandbox as the outside world
 * (each registered vendor URL pointed at its mount).
 */
const workerdPlugin = (
  sandbox: typeof testSandbox,
  registrations: readonly ProviderRegistration[] = providerRegistrations,
) =>
  cloudflareTest(async () => ({
    main: "./worker/index.ts",
    wrangler: { configPath: "./wrangler.toml" },
    miniflare: {
      bindings: {
        TEST_MIGRATIONS: await readD1Migrations(path.join(root, "migrations")),
        JWT_SECRET: "test-jwt-secret-that-is-at-least-32-characters-long",
        // Two keys, as during a rotation: new writes use the last, rows written with the first still read.
        CREDENTIALS_KEYS:
          "2026-01:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=,2026-07:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=",
        APP_ENV: "test",
        // Accounts are created by the hundred; production hashes with 100,000 iterations.
        PASSWORD_ITERATIONS: "1000",
        ...sandboxUrlVariables(SANDBOX, registrations),
        WEATHER_API_URL: `${SANDBOX}/weather`,
        GEOCODER_URL: `${SANDBOX}/geocoder`,
        // The geocoder's one call a second and 5 s limit, shortened: lookups would wait on the real clock.
        GEOCODER_INTERVAL_MS: "400",
        GEOCODER_TIMEOUT_MS: "1500",
        EMAIL_API_URL: `${SANDBOX}/mail`,
        EMAIL_API_KEY: "test-email-key",
        EMAIL_FROM: "Sunfleet <alerts@sunfleet.test>",
        APP_URL: "http://sunfleet.test",
        // Syncs through the routes would otherwise start history runs in the background queue;
        // the tests of the history runs turn it on in their own deps.
        SYNC_HISTORY: "off",
      },
      outboundService: sandboxOutbound(sandbox),
    },
  }));

/**
 * The provider fixture project registers a sixth provider (tests/fixtures/providers/example/) the
 * way a real one is registered: its lines in copies of the three lists a provider is named in
 * (schema/provider-list.ts, worker/providers/implementations.ts, sandbox/emulators.ts), which this
 * plugin puts in place of those lists for the project's worker, sandbox and client modules. The
 * copies import the real lists; nothing outside this project sees the fixture.
 */
const fixtureLists = new Map(
  ["schema/provider-list.ts", "worker/providers/implementations.ts", "sandbox/emulators.ts"].map((list) => [
    path.join(root, list),
    path.join(root, "tests/fixtures/providers", path.basename(list)),
  ]),
);
const fixtureProviders = (): Plugin => ({
  name: "fixture-providers",
  enforce: "pre",
  async resolveId(source, importer, options) {
    if (!/(provider-list|implementations|emulators)(\.ts)?$/.test(source)) return null;
    if (importer && [...fixtureLists.values()].includes(importer)) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    const fixture = resolved && fixtureLists.get(resolved.id);
    return fixture ? { ...resolved, id: fixture } : resolved;
  },
});
const fixtureSandbox = createSandbox({
  clock: () => (solisLimitClockMs += 1000),
  providers: { registrations: fixtureRegistrations, emulators: fixtureEmulators },
});
const fixtureProviderTests = ["tests/worker/providers/fixture-provider.test.ts"];

/**
 * Each worker test file starts its own runtime, which loads the worker's whole module graph again;
 * with its dependencies pre-bundled that load takes about 1.5 s less per file on this machine.
 */
const workerDeps = { optimizer: { ssr: { enabled: true, include: workerOptimizedDeps } } };

/**
 * Worker test files whose tests read only what they wrote (their own organisation's rows, or no
 * storage at all): they share one runtime and its storage per vitest worker instead of starting one
 * each (about 2 s a file here), which also runs them beside other organisations' data. A file that
 * reads platform-wide rows (irradiance or geocodes by location, cron jobs over every organisation,
 * the outbox, throttles by address) keeps a runtime of its own: the default for any file not listed.
 */
const sharedRuntimeWorkerTests = [
  "tests/worker/alerts/detection-rules.test.ts",
  "tests/worker/api/{alert-lifecycle,alerts,api-keys,audit,auth,bad-input,credentials,error-codes}.test.ts",
  "tests/worker/api/{exports,invites,isolation,members,meteronline-import,password-reset,preferences}.test.ts",
  "tests/worker/api/{profile-onboarding,roles-table,security-headers,sessions,smoke,timezones}.test.ts",
  "tests/worker/fleet/fleet-summary.test.ts",
  "tests/worker/providers/{conformance,fronius,history,registration,sma,solax,solis,solis-signature,vendor-parse}.test.ts",
  "tests/worker/services/{local-day,metric-normalise,password,site-status,solar-model}.test.ts",
];

/**
 * How long a test in workerd may run: most sign up, connect a sandbox vendor and sync through HTTP,
 * a few seconds alone and two to three times that while the browser suite shares the two cores
 * (`npm test` runs them side by side). Vitest's 5 s default timed two of them out in a fresh-clone
 * run whose suite took 1,044 s instead of ~580 s. Timings are the benchmarks' to bound, not this.
 */
const WORKER_TEST_TIMEOUT_MS = 20_000;

export default defineConfig({
  test: {
    // Vitest's default on a two-core machine is one file at a time, and most files spend their time
    // waiting (a workerd runtime starting for each worker file, wrangler and tsx child processes in
    // the node checks), so two run at once; three starved the jsdom tests' first renders.
    maxWorkers: 2,
    projects: [
      {
        plugins: [workerdPlugin(testSandbox), sqlAsText()],
        test: {
          name: "worker",
          testTimeout: WORKER_TEST_TIMEOUT_MS,
          include: ["tests/worker/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...sharedRuntimeWorkerTests, ...fixtureProviderTests],
          setupFiles: ["./tests/worker/apply-migrations.ts"],
          deps: workerDeps,
        },
      },
      {
        plugins: [workerdPlugin(testSandbox), sqlAsText()],
        test: {
          name: "worker-shared",
          testTimeout: WORKER_TEST_TIMEOUT_MS,
          include: sharedRuntimeWorkerTests,
          isolate: false,
          setupFiles: ["./tests/worker/apply-migrations.ts"],
          deps: workerDeps,
        },
      },
      {
        plugins: [workerdPlugin(fixtureSandbox, fixtureRegistrations), sqlAsText(), fixtureProviders()],
        test: {
          name: "worker-fixture",
          testTimeout: WORKER_TEST_TIMEOUT_MS,
          include: fixtureProviderTests,
          setupFiles: ["./tests/worker/apply-migrations.ts"],
          deps: workerDeps,
        },
      },
      {
        // `npm run bench` only: performance reports, never part of `npm test`.
        plugins: [workerdPlugin(benchSandbox), sqlAsText()],
        test: {
          name: "bench",
          include: ["tests/bench/**/*.bench.ts"],
          setupFiles: ["./tests/worker/apply-migrations.ts"],
          deps: workerDeps,
          // SMA's 500 plants: a first run of ~27 minutes at its 60 calls a minute, then a steady one.
          testTimeout: 60 * 60_000,
          fileParallelism: false,
          // Fleet benchmark scale: systems in the organisation, and how many get raw readings seeded.
          provide: {
            benchProviders: process.env.BENCH_PROVIDERS ?? "solis,fronius,sma,solax",
            benchRateLimitPercent,
            benchSystems: Number(process.env.BENCH_SYSTEMS ?? 20_000),
            benchRawSystems: Number(process.env.BENCH_RAW_SYSTEMS ?? 20_000),
            benchPagedDays: Number(process.env.BENCH_PAGED_DAYS ?? 2),
            // Systems a fleet store takes before new ones go to a shard; 0: the stores' own default.
            benchShardSystems: Number(process.env.BENCH_SHARD_SYSTEMS ?? 0),
          },
        },
      },
      {
        plugins: [routerPlugin(), react()],
        test: {
          name: "web",
          environment: "jsdom",
          include: ["tests/web/**/*.test.{ts,tsx}"],
          setupFiles: ["./tests/web/setup.ts"],
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: ["tests/e2e/**/*.e2e.ts"],
          globalSetup: ["./tests/e2e/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One browser and one server: files run one after another.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: "node",
          environment: "node",
          include: ["tests/node/**/*.test.ts"],
        },
      },
    ],
  },
});
