import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import type { FaultVendor, SandboxFaults } from "../../../sandbox/faults";
import type { ProviderId } from "../../../schema/api/providers";
import type { Env, SyncMessage } from "../../../worker/env";
import worker from "../../../worker/index";
import { createDb } from "../../../worker/lib/db";
import { localBudget } from "../../../worker/providers/budget";
import { CallsStopped, ProviderError } from "../../../worker/providers/errors";
import { ProviderHttp } from "../../../worker/providers/http";
import { consumeSyncMessage } from "../../../worker/sync/queue-consumer";
import { syncConnection } from "../../../worker/sync/sync-connection";
import type { SyncDeps } from "../../../worker/sync/types";
import { expectStatus, registerOwner, type TestUser } from "../helpers";
import { storeConnection } from "./connection-fixtures";

/**
 * Every vendor fault ends: whatever the vendor does, a sync answers within its answer time and its
 * run ends with a failure that names the cause, and the next sync after the fault reaches the
 * vendor and succeeds. Through the worker's own fetch handler on the real runtime and clock, with
 * the times shortened by the test bindings the worker reads (answer 1 s, a call 1.5 s, a unit's
 * calls 4 s instead of 20, 10 and 120 s).
 */
const ANSWER_WITHIN_MS = 1000;
const CALL_TIMEOUT_MS = 1500;
const UNIT_LIMIT_MS = 4000;
/** The answer's own work after its deadline (a D1 read, the JSON), on a shared test machine. */
const ANSWER_SLACK_MS = 1000;
/** A run ends within its unit's limit, the call in flight and the closing writes. */
const RUN_ENDS_WITHIN_MS = UNIT_LIMIT_MS + CALL_TIMEOUT_MS + 2000;

/**
 * The vendor budgets do not space calls here (their own tests cover them): SolaX's token API
 * would otherwise wait 7 s between calls. Each test has fresh emulators, whose own limits then
 * never refuse a test's few calls.
 */
const unspacedBudgets = {
  idFromName: (name: string) => env.VENDOR_BUDGET.idFromName(name),
  get: () => ({ reserve: async () => 0 }),
} as unknown as Env["VENDOR_BUDGET"];

const faultBindings: Partial<Env> = {
  SYNC_ANSWER_WITHIN_MS: String(ANSWER_WITHIN_MS),
  PROVIDER_CALL_TIMEOUT_MS: String(CALL_TIMEOUT_MS),
  SYNC_UNIT_LIMIT_MS: String(UNIT_LIMIT_MS),
  VENDOR_BUDGET: unspacedBudgets,
};
/** Setting up and recovering: the production answer time, so a healthy sync answers its outcome. */
const healthyBindings: Partial<Env> = { ...faultBindings, SYNC_ANSWER_WITHIN_MS: "20000" };

interface ProviderCase {
  label: string;
  provider: ProviderId;
  vendor: FaultVendor;
  /** The sandbox mounts this vendor's calls go to. */
  mounts: string[];
  credentials: Record<string, string>;
}

const solis = sandboxAccounts.solis[0];
const fronius = sandboxAccounts.fronius[0];
const sma = sandboxAccounts.sma[0];
const solax = sandboxAccounts.solax[0];

const providers: ProviderCase[] = [
  {
    label: "SolisCloud",
    provider: "solis",
    vendor: "solis",
    mounts: ["solis"],
    credentials: { keyId: solis.keyId, keySecret: solis.keySecret },
  },
  {
    label: "Fronius Solar.web",
    provider: "fronius",
    vendor: "fronius",
    mounts: ["fronius"],
    credentials: { accessKeyId: fronius.accessKeyId, accessKeyValue: fronius.accessKeyValue },
  },
  {
    label: "SMA",
    provider: "sma",
    vendor: "sma",
    mounts: ["sma", "sma-auth"],
    credentials: { clientId: sma.clientId, clientSecret: sma.clientSecret, ownerEmail: sma.ownerEmail },
  },
  {
    label: "SolaX token API",
    provider: "solax",
    vendor: "solax",
    mounts: ["solax"],
    credentials: { apiType: "token", tokenId: solax.tokenId, wifiSns: solax.wifiSns.join(",") },
  },
  {
    label: "SolaX OpenAPI",
    provider: "solax",
    vendor: "solax-openapi",
    mounts: ["solax-openapi"],
    credentials: { apiType: "openapi", clientId: solax.clientId, clientSecret: solax.clientSecret },
  },
];

interface FaultCase {
  fault: string;
  inject: (faults: SandboxFaults, vendor: FaultVendor) => void;
  errorKind: string;
  /** How the run's error (describeFailure) names the cause. */
  message: RegExp;
  connectionStatus: "active" | "needs_attention";
  /** The answer comes at the answer time while the unit goes on (a vendor that never answers). */
  answersRunning?: boolean;
}

const faults: FaultCase[] = [
  {
    fault: "rate-limits every call",
    inject: (f, vendor) => f.rateLimitShare(vendor, 100),
    errorKind: "rate_limited",
    message: /is limiting requests/,
    connectionStatus: "active",
  },
  {
    fault: "never answers",
    inject: (f, vendor) => f.hang(vendor),
    errorKind: "timeout",
    message: /did not answer in time/,
    connectionStatus: "active",
    answersRunning: true,
  },
  {
    fault: "refuses the credentials",
    inject: (f, vendor) => f.refuseCredentials(vendor),
    errorKind: "auth",
    message: /rejected the credentials/,
    connectionStatus: "needs_attention",
  },
  {
    fault: "sends partial data",
    inject: (f, vendor) => f.partial(vendor),
    errorKind: "malformed",
    message: /sent data Sunfleet could not read/,
    connectionStatus: "active",
  },
  {
    fault: "sends unreadable data",
    inject: (f, vendor) => f.unreadable(vendor),
    errorKind: "malformed",
    message: /sent data Sunfleet could not read/,
    connectionStatus: "active",
  },
  {
    fault: "sends an HTML error page",
    inject: (f, vendor) => f.unreadable(vendor, "html"),
    errorKind: "malformed",
    message: /sent data Sunfleet could not read .*an HTML page that is not JSON/,
    connectionStatus: "active",
  },
];

type Sandbox = ReturnType<typeof createSandbox>;

/** The sandbox each mount's calls go to: the running test's for its vendor, a shared one otherwise. */
const routes = new Map<string, Sandbox>();
const shared = createSandbox();

/** A fresh sandbox for the vendor's mounts (tests of one vendor run one after another). */
function vendorSandbox(provider: ProviderCase): Sandbox {
  let limitClockMs = Date.now();
  // SolisCloud's per-second limit sees a second between calls: the budget does not space them here.
  const sandbox = createSandbox({ clock: () => (limitClockMs += 1000) });
  for (const mount of provider.mounts) routes.set(mount, sandbox);
  return sandbox;
}

/** Like the real fetch, the call rejects when its signal aborts (a hanging emulator never answers). */
function sandboxFetch(request: Request): Promise<Response> {
  const mount = new URL(request.url).pathname.split("/")[1] ?? "";
  const sandbox = routes.get(mount) ?? shared;
  return new Promise<Response>((resolve, reject) => {
    const { signal } = request;
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    Promise.resolve(sandbox.fetch(request)).then(resolve, reject);
  });
}

beforeAll(() => {
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    return new URL(request.url).host === "sandbox.test" ? sandboxFetch(request) : realFetch(input, init);
  });
});
afterAll(() => {
  vi.restoreAllMocks();
});

/** The worker's fetch handler with these bindings; work after the answer is kept in `pending`. */
async function api(
  path: string,
  init: { method?: string; token: string; body?: unknown },
  bindings: Partial<Env>,
  pending: Promise<void>[],
): Promise<Response> {
  const ctx = createExecutionContext();
  const headers = new Headers({ Authorization: `Bearer ${init.token}` });
  if (init.body !== undefined) headers.set("Content-Type", "application/json");
  const response = await worker.fetch(
    new Request(`http://sunfleet.test${path}`, {
      method: init.method ?? "GET",
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
    { ...env, ...bindings },
    ctx,
  );
  pending.push(waitOnExecutionContext(ctx));
  return response;
}

interface RunView {
  id: string;
  status: string;
  trigger: string;
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
  errorKind: string | null;
}

/** Polls GET /api/sync-runs/{id} until the run is no longer running, or the time is up. */
async function runOnceEnded(owner: TestUser, runId: string, pending: Promise<void>[]): Promise<RunView> {
  const giveUpAt = Date.now() + RUN_ENDS_WITHIN_MS;
  for (;;) {
    const run = await expectStatus<RunView>(
      await api(`/api/sync-runs/${runId}`, { token: owner.token }, faultBindings, pending),
      200,
    );
    if (run.status !== "running" || Date.now() > giveUpAt) return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The newest run of the owner's connection (an answer that reported a failure carries no run id). */
async function newestRun(owner: TestUser, provider: ProviderId, pending: Promise<void>[]): Promise<RunView> {
  const runs = await expectStatus<RunView[]>(
    await api(`/api/providers/${provider}/runs`, { token: owner.token }, faultBindings, pending),
    200,
  );
  const run = runs[0];
  if (!run) throw new Error("no run");
  return run;
}

async function connectionOf(owner: TestUser, provider: ProviderId, pending: Promise<void>[]) {
  const list = await expectStatus<{ provider: string; status: string; lastError: string | null }[]>(
    await api("/api/credentials", { token: owner.token }, faultBindings, pending),
    200,
  );
  return list.find((connection) => connection.provider === provider);
}

const callsOf = (sandbox: Sandbox, vendor: FaultVendor) => sandbox.faults.calls.get(vendor) ?? 0;

/** Saves the credentials through the route; answers the sync part of its answer. */
async function saveCredentials(
  owner: TestUser,
  provider: ProviderCase,
  bindings: Partial<Env>,
  pending: Promise<void>[],
) {
  const saved = await expectStatus<{ sync: { status: string; message: string } }>(
    await api(
      "/api/credentials",
      {
        method: "POST",
        token: owner.token,
        body: { provider: provider.provider, credentials: provider.credentials },
      },
      bindings,
      pending,
    ),
    201,
  );
  return saved.sync;
}

/** A next sync with the fault gone reaches the vendor and succeeds. */
async function expectRecovery(
  owner: TestUser,
  provider: ProviderCase,
  sandbox: Sandbox,
  pending: Promise<void>[],
) {
  const before = callsOf(sandbox, provider.vendor);
  const res = await api(
    `/api/providers/${provider.provider}/sync`,
    { method: "POST", token: owner.token },
    healthyBindings,
    pending,
  );
  const body = await expectStatus<{ status: string }>(res, 200);
  expect(body.status).toBe("success");
  expect(callsOf(sandbox, provider.vendor)).toBeGreaterThan(before);
  expect((await newestRun(owner, provider.provider, pending)).status).toBe("success");
  expect((await connectionOf(owner, provider.provider, pending))?.status).toBe("active");
}

/** One vendor's tests one after another (its emulator is the test's), the vendors side by side. */
const queues = new Map<FaultVendor, Promise<unknown>>();
function oneAtATime<T>(vendor: FaultVendor, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(vendor) ?? Promise.resolve();
  const mine = previous.then(work, work);
  queues.set(
    vendor,
    mine.catch(() => undefined),
  );
  return mine;
}

describe("every vendor fault ends, through the routes on the real clock", { timeout: 60_000 }, () => {
  for (const provider of providers) {
    for (const fault of faults) {
      it.concurrent(`${provider.label} ${fault.fault}: answers in time, the run fails as ${fault.errorKind}, the next sync succeeds`, () =>
        oneAtATime(provider.vendor, async () => {
          const pending: Promise<void>[] = [];
          const sandbox = vendorSandbox(provider);
          const owner = await registerOwner();
          expect((await saveCredentials(owner, provider, healthyBindings, pending)).status).toBe("success");

          fault.inject(sandbox.faults, provider.vendor);
          const callsBefore = callsOf(sandbox, provider.vendor);
          const askedAt = Date.now();
          const res = await api(
            `/api/providers/${provider.provider}/sync`,
            { method: "POST", token: owner.token },
            faultBindings,
            pending,
          );
          const answeredMs = Date.now() - askedAt;
          const text = await res.clone().text();
          expect(answeredMs, text).toBeLessThan(ANSWER_WITHIN_MS + ANSWER_SLACK_MS);
          let runId: string;
          if (res.status === 202) {
            runId = (await expectStatus<{ runId: string; status: string }>(res, 202)).runId;
          } else {
            // The run failed before the answer time: the answer is the failure itself.
            expect(fault.answersRunning, text).not.toBe(true);
            const failure = await res.json<{ code: string; details: { kind: string } }>();
            expect(failure, text).toMatchObject({
              code: "provider_failure",
              details: { kind: fault.errorKind },
            });
            runId = (await newestRun(owner, provider.provider, pending)).id;
          }
          const run = await runOnceEnded(owner, runId, pending);
          expect(run, JSON.stringify(run)).toMatchObject({ status: "failed", errorKind: fault.errorKind });
          expect(run.error).toMatch(fault.message);
          const runMs = Date.parse(run.finishedAt ?? "") - Date.parse(run.startedAt);
          expect(runMs).toBeLessThan(RUN_ENDS_WITHIN_MS);
          // The fault was the vendor's: the sync reached it.
          expect(callsOf(sandbox, provider.vendor)).toBeGreaterThan(callsBefore);
          const connection = await connectionOf(owner, provider.provider, pending);
          expect(connection).toMatchObject({ status: fault.connectionStatus, lastError: run.error });

          sandbox.faults.clear(provider.vendor);
          await expectRecovery(owner, provider, sandbox, pending);
          await Promise.all(pending);
        }));
    }

    it.concurrent(`${provider.label}: saving credentials while the vendor never answers answers in time`, () =>
      oneAtATime(provider.vendor, async () => {
        const pending: Promise<void>[] = [];
        const sandbox = vendorSandbox(provider);
        const owner = await registerOwner();
        sandbox.faults.hang(provider.vendor);
        const askedAt = Date.now();
        const sync = await saveCredentials(owner, provider, faultBindings, pending);
        const answeredMs = Date.now() - askedAt;
        expect(answeredMs).toBeLessThan(ANSWER_WITHIN_MS + ANSWER_SLACK_MS);
        expect(sync.status).toBe("running");
        const run = await runOnceEnded(
          owner,
          (await newestRun(owner, provider.provider, pending)).id,
          pending,
        );
        expect(run).toMatchObject({ status: "failed", trigger: "save", errorKind: "timeout" });
        expect(run.error).toMatch(/did not answer in time/);
        expect((await connectionOf(owner, provider.provider, pending))?.status).toBe("active");
        sandbox.faults.clear(provider.vendor);
        await expectRecovery(owner, provider, sandbox, pending);
        await Promise.all(pending);
      }));
  }
});

describe("the unit in flight at the answer", { timeout: 30_000 }, () => {
  it("is handed to the queue when it outlasts the answer and its grace, and the queue finishes the run", async () => {
    const owner = await registerOwner();
    const connectionId = await storeConnection(owner.orgId, "fronius", {
      accessKeyId: fronius.accessKeyId,
      accessKeyValue: fronius.accessKeyValue,
    });
    const sandbox = createSandbox();
    const sent: SyncMessage[] = [];
    const background: Promise<unknown>[] = [];
    const deps = (): SyncDeps => ({
      db: createDb(env.DB),
      env,
      now: () => Date.now(),
      fetch: (request) =>
        new Promise<Response>((resolve, reject) => {
          request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
          Promise.resolve(sandbox.fetch(request)).then(resolve, reject);
        }),
      budget: localBudget({ perEndpoint: false, limits: [{ intervalMs: 1, burst: 1 }] }),
      enqueue: async (message) => {
        sent.push(message);
      },
    });
    sandbox.faults.hang("fronius");
    const askedAt = Date.now();
    const answer = await syncConnection(deps(), connectionId, "manual", 200, {
      waitUntil: (promise) => background.push(promise),
      graceMs: 300,
    });
    expect(Date.now() - askedAt).toBeLessThan(200 + ANSWER_SLACK_MS);
    expect(answer.status).toBe("running");
    if (answer.status !== "running") return;
    await Promise.all(background);
    // The hanging call was stopped, nothing of the unit committed, and the queue has it.
    expect(sent).toEqual([{ kind: "snapshot", runId: answer.runId, unit: 0 }]);
    const row = await env.DB.prepare("SELECT status, unit_seq, error FROM sync_runs WHERE id = ?")
      .bind(answer.runId)
      .first<{ status: string; unit_seq: number; error: string | null }>();
    expect(row).toEqual({ status: "running", unit_seq: 0, error: null });

    sandbox.faults.clear();
    const message = sent.shift();
    if (message) await consumeSyncMessage(deps(), message);
    const done = await env.DB.prepare("SELECT status FROM sync_runs WHERE id = ?")
      .bind(answer.runId)
      .first<{ status: string }>();
    expect(done?.status).toBe("success");
    const lease = await env.DB.prepare("SELECT lease_run_id FROM provider_connections WHERE id = ?")
      .bind(connectionId)
      .first<{ lease_run_id: string | null }>();
    expect(lease?.lease_run_id).toBeNull();
  });
});

describe("a unit's calls share one time limit", () => {
  /** A clock that only the transport's waits move. */
  function virtualTime() {
    let nowMs = 1_000_000;
    return {
      now: () => nowMs,
      sleep: async (ms: number) => {
        nowMs += ms;
      },
      elapsed: () => nowMs - 1_000_000,
    };
  }
  /** Every call is refused three times (Retry-After 5 s) before it is answered. */
  function busyVendor() {
    let attempt = 0;
    return async () =>
      ++attempt % 4 === 0
        ? Response.json({ ok: true })
        : new Response("slow down", { status: 429, headers: { "Retry-After": "5" } });
  }

  it("fails a page of many rate-limited calls within the limit, naming the rate limit", async () => {
    const clock = virtualTime();
    const http = new ProviderHttp({
      fetch: busyVendor(),
      now: clock.now,
      sleep: clock.sleep,
      limitMs: 60_000,
    });
    const page = async () => {
      for (let call = 0; call < 100; call++) await http.json({ url: `https://vendor.test/plants/${call}` });
    };
    const error = await page().then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "rate_limited" });
    expect((error as ProviderError).message).toMatch(/sync unit has for its calls/);
    // Without the shared limit each call would wait its own 15 s: 100 calls, 25 minutes.
    expect(clock.elapsed()).toBeLessThanOrEqual(60_000);
  });

  it("does not count the waits for the credential's budget", async () => {
    const clock = virtualTime();
    const http = new ProviderHttp({
      fetch: async () => Response.json({ ok: true }),
      now: clock.now,
      sleep: clock.sleep,
      limitMs: 10_000,
      // SolaX's token API: one call per 7 s.
      budget: localBudget({ perEndpoint: false, limits: [{ intervalMs: 7000, burst: 1 }] }),
    });
    for (let call = 0; call < 10; call++) await http.json({ url: "https://vendor.test/realtime" });
    expect(clock.elapsed()).toBeGreaterThan(60_000);
    expect(http.calls).toBe(10);
  });

  it("stops the call in flight with CallsStopped when the invocation hands its unit on", async () => {
    const stop = new AbortController();
    const http = new ProviderHttp({
      fetch: (request) =>
        new Promise<Response>((_, reject) =>
          request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true }),
        ),
      signal: stop.signal,
    });
    const call = http.json({ url: "https://vendor.test/hangs" });
    setTimeout(() => stop.abort(), 20);
    await expect(call).rejects.toBeInstanceOf(CallsStopped);
  });
});
