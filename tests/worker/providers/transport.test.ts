import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import { budgetName, localBudget, reserveSlot } from "../../../worker/providers/budget";
import { MAX_ANSWER_BYTES, ProviderHttp } from "../../../worker/providers/http";
import { findApiAdapter, providerBudget } from "../../../worker/providers/registry";
import { solisAdapter } from "../../../worker/providers/solis";
import { sandboxUrls } from "../../../worker/providers/urls";
import { call, expectStatus, registerOwner } from "../helpers";
import { readAllPages } from "./all-pages";
import { callContext, type Fetch, failure } from "./harness";

const solis = sandboxAccounts.solis[0];
const solisCredentials = { keyId: solis.keyId, keySecret: solis.keySecret };
const fronius = sandboxAccounts.fronius[0];
const FIXED_NOW = Date.UTC(2024, 5, 21, 10, 0, 0);

/** Records every wait instead of waiting. */
function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

const context = (http: ProviderHttp) => callContext(http, () => FIXED_NOW);

const answering =
  (...answers: (() => Response)[]): Fetch =>
  async () =>
    (answers.length > 1 ? answers.shift() : answers[0])?.() ?? new Response("{}");

describe("retries inside the run", () => {
  it("retries the vendor's rate-limit answer (SolisCloud R0000) after its window and then succeeds", async () => {
    const sandbox = createSandbox({ now: () => FIXED_NOW });
    sandbox.faults.rateLimitNext("solis", 2);
    const { waits, sleep } = recordingSleep();
    const http = new ProviderHttp({ fetch: async (r) => sandbox.fetch(r), sleep });
    expect(await solisAdapter.testConnection(context(http), solisCredentials)).toEqual({ sitesFound: 3 });
    expect(http.calls).toBe(3);
    expect(http.retries).toBe(2);
    // "too many request 2 times in 1SECONDS": one second each time.
    expect(waits).toEqual([1000, 1000]);
    expect(sandbox.faults.refused.get("solis")).toBe(2);
  });

  it("gives up after four retries and reports the rate limit", async () => {
    const sandbox = createSandbox({ now: () => FIXED_NOW });
    sandbox.faults.rateLimitNext("solis", 10);
    const { waits, sleep } = recordingSleep();
    const http = new ProviderHttp({ fetch: async (r) => sandbox.fetch(r), sleep });
    const error = await failure(solisAdapter.testConnection(context(http), solisCredentials));
    expect(error.kind).toBe("rate_limited");
    expect(http.calls).toBe(5);
    expect(waits).toEqual([1000, 1000, 1000, 1000]);
  });

  it("honours Retry-After on HTTP 429 (Fronius) and succeeds", async () => {
    const sandbox = createSandbox({ now: () => FIXED_NOW });
    sandbox.faults.rateLimitNext("fronius", 1);
    const { waits, sleep } = recordingSleep();
    const http = new ProviderHttp({ fetch: async (r) => sandbox.fetch(r), sleep });
    const adapter = findApiAdapter("fronius");
    const result = await adapter?.testConnection(context(http), {
      accessKeyId: fronius.accessKeyId,
      accessKeyValue: fronius.accessKeyValue,
    });
    expect(result?.sitesFound).toBe(3);
    expect(waits).toEqual([1000]);
    expect(http.retries).toBe(1);
  });

  it("backs off exponentially with jitter on 5xx, then succeeds", async () => {
    const { waits, sleep } = recordingSleep();
    const http = new ProviderHttp({
      fetch: answering(
        () => new Response("busy", { status: 503 }),
        () => new Response("busy", { status: 502 }),
        () => Response.json({ ok: true }),
      ),
      sleep,
      random: () => 0.5,
    });
    expect(await http.json({ url: "https://vendor.test/x" })).toEqual({ ok: true });
    // Steps of 1 s and 2 s, each between half and all of its step.
    expect(waits).toEqual([750, 1500]);
  });

  it("does not wait when the vendor asks for longer than the run may wait", async () => {
    const { waits, sleep } = recordingSleep();
    const http = new ProviderHttp({
      fetch: answering(() => new Response("slow down", { status: 429, headers: { "Retry-After": "3600" } })),
      sleep,
    });
    const error = await failure(http.json({ url: "https://vendor.test/x" }));
    expect(error).toMatchObject({ kind: "rate_limited", retryAfterMs: 3_600_000 });
    expect(http.calls).toBe(1);
    expect(waits).toEqual([]);
  });

  it("never retries rejected credentials or a refused request", async () => {
    for (const [status, kind] of [
      [401, "auth"],
      [403, "auth"],
      [404, "invalid_request"],
    ] as const) {
      const http = new ProviderHttp({
        fetch: answering(() => new Response("no", { status })),
        sleep: async () => {},
      });
      expect((await failure(http.json({ url: "https://vendor.test/x" }))).kind).toBe(kind);
      expect(http.calls).toBe(1);
    }
    // SolisCloud's wrong secret (403 R0000 "No authority") is auth, asked once.
    const sandbox = createSandbox({ now: () => FIXED_NOW });
    const http = new ProviderHttp({ fetch: async (r) => sandbox.fetch(r), sleep: async () => {} });
    const error = await failure(
      solisAdapter.testConnection(context(http), { ...solisCredentials, keySecret: "wrong" }),
    );
    expect(error.kind).toBe("auth");
    expect(http.calls).toBe(1);
  });
});

describe("outbound safety of the transport", () => {
  it("follows no redirect: a 3xx is a provider error and the target is never called", async () => {
    const seen: Request[] = [];
    const http = new ProviderHttp({
      fetch: async (request) => {
        seen.push(request);
        return new Response(null, { status: 302, headers: { Location: "http://169.254.169.254/" } });
      },
      sleep: async () => {},
    });
    const error = await failure(http.json({ url: "https://vendor.test/x" }));
    expect(error.kind).toBe("unavailable");
    expect(error.message).toMatch(/redirect \(HTTP 302\)/);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.redirect).toBe("manual");
  });

  it("refuses an answer over 5 MB by its Content-Length and while reading it", async () => {
    const declared = new ProviderHttp({
      fetch: async () => new Response("{}", { headers: { "Content-Length": String(MAX_ANSWER_BYTES + 1) } }),
    });
    expect((await failure(declared.json({ url: "https://vendor.test/x" }))).message).toMatch(
      /larger than 5 MB/,
    );
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    let sent = 0;
    const streamed = new ProviderHttp({
      fetch: async () =>
        new Response(
          new ReadableStream({
            pull(controller) {
              sent++;
              if (sent > 8) controller.close();
              else controller.enqueue(chunk);
            },
          }),
        ),
    });
    const error = await failure(streamed.json({ url: "https://vendor.test/x" }));
    expect(error.kind).toBe("malformed");
    expect(error.message).toMatch(/larger than 5 MB/);
    // Reading stopped once the limit was passed, before the whole 8 MB arrived.
    expect(sent).toBeLessThanOrEqual(7);
  });

  it("shortens vendor texts and strips credential-like values and the credentials themselves", async () => {
    const secretEcho = `Invalid sign for ${solis.keySecret} token=abcdef0123456789 Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl key 0123456789abcdef0123456789abcdef ${"x".repeat(500)}`;
    const http = new ProviderHttp({
      fetch: async () => Response.json({ success: true, code: "B0001", msg: secretEcho, data: null }),
    });
    const adapter = findApiAdapter("solis");
    const error = await failure(
      adapter?.testConnection(context(http), solisCredentials) ?? Promise.resolve(null),
    );
    expect(error.kind).toBe("invalid_request");
    expect(error.message).toMatch(/^SolisCloud refused the userStationList request: Invalid sign for/);
    for (const leaked of [
      solis.keySecret,
      solis.keyId,
      "abcdef0123456789",
      "eyJhbGciOiJIUzI1NiJ9",
      "0123456789abcdef0123456789abcdef",
    ]) {
      expect(error.message).not.toContain(leaked);
    }
    expect(error.message).toContain("[redacted]");
    // 300 characters of vendor text at most, plus our own words around it.
    expect(error.message.length).toBeLessThan(300 + 100);
  });
});

describe("vendor budgets", () => {
  it("spaces calls to one endpoint of one credential across invocations, and leaves other endpoints free", async () => {
    const adapter = findApiAdapter("solis");
    if (!adapter) throw new Error("solis is an API provider");
    const credentials = { keyId: "budget-test-key", keySecret: "one" };
    // Two invocations: two transports with their own clocks, one shared bucket.
    const first = await providerBudget(env, adapter, credentials);
    const second = await providerBudget(env, adapter, { ...credentials });
    expect(await first.reserve("/v1/api/userStationList", FIXED_NOW)).toBe(0);
    expect(await second.reserve("/v1/api/userStationList", FIXED_NOW)).toBe(550);
    expect(await first.reserve("/v1/api/userStationList", FIXED_NOW + 100)).toBe(1000);
    expect(await second.reserve("/v1/api/inverterDetailList", FIXED_NOW)).toBe(0);
    // Once the slots have passed, the next call goes at once.
    expect(await second.reserve("/v1/api/userStationList", FIXED_NOW + 5000)).toBe(0);
  });

  it("gives the same key id with another secret a bucket of its own", async () => {
    const adapter = findApiAdapter("solis");
    if (!adapter) throw new Error("solis is an API provider");
    const real = await providerBudget(env, adapter, { keyId: "budget-secret-key", keySecret: "real" });
    const guessed = await providerBudget(env, adapter, { keyId: "budget-secret-key", keySecret: "guess" });
    for (let i = 0; i < 5; i++) await guessed.reserve("/v1/api/userStationList", FIXED_NOW);
    expect(await real.reserve("/v1/api/userStationList", FIXED_NOW)).toBe(0);
  });

  it("takes no slot a caller will not wait for", async () => {
    const budget = localBudget({ perEndpoint: false, limits: [{ intervalMs: 1000, burst: 1 }] });
    expect(await budget.reserve("/a", 0, 500)).toBe(0);
    expect(await budget.reserve("/a", 0, 500)).toBe(1000);
    // The refused wait left the bucket as it was.
    expect(await budget.reserve("/a", 0)).toBe(1000);
  });

  it("lets ProviderHttp wait for its slot on the injected clock", async () => {
    const adapter = findApiAdapter("solis");
    if (!adapter) throw new Error("solis is an API provider");
    const sandbox = createSandbox({ now: () => FIXED_NOW });
    let clock = FIXED_NOW + 60_000;
    const { waits, sleep } = recordingSleep();
    const http = new ProviderHttp({
      fetch: async (r) => sandbox.fetch(r),
      budget: await providerBudget(env, adapter, { keyId: "budget-clock-key", keySecret: "s" }),
      now: () => clock,
      sleep: async (ms) => {
        await sleep(ms);
        clock += ms;
      },
    });
    await http.json({ method: "POST", url: "https://vendor.test/v1/api/a", body: "{}" }).catch(() => null);
    await http.json({ method: "POST", url: "https://vendor.test/v1/api/a", body: "{}" }).catch(() => null);
    await http.json({ method: "POST", url: "https://vendor.test/v1/api/b", body: "{}" }).catch(() => null);
    expect(waits).toEqual([550]);
  });

  it("keys each bucket by provider and a SHA-256 of the identifying key and secret, never either itself", async () => {
    const name = await budgetName("solis", solis.keyId, solis.keySecret);
    expect(name).toMatch(/^solis:[0-9a-f]{64}$/);
    expect(name).not.toContain(solis.keyId);
    expect(name).not.toContain(solis.keySecret);
    expect(await budgetName("fronius", solis.keyId, solis.keySecret)).not.toBe(name);
    expect(await budgetName("solis", solis.keyId, "another secret")).not.toBe(name);
  });

  it("holds every limit at once: SolaX's 10 a minute and 10,000 a day per token", async () => {
    const adapter = findApiAdapter("solax");
    if (!adapter) throw new Error("solax is an API provider");
    const plan = adapter.callPlan({ apiType: "token", tokenId: "t", wifiSns: ["A"], timezone: null });
    let tats: number[] = [];
    let at = 0;
    let calls = 0;
    const callTimes: number[] = [];
    // A whole day of calls as fast as the budget lets them go.
    while (at < 86_400_000) {
      const slot = reserveSlot(tats, plan.limits, at);
      tats = slot.tats;
      at += slot.waitMs;
      if (at >= 86_400_000) break;
      callTimes.push(at);
      calls++;
    }
    expect(calls).toBeLessThanOrEqual(10_000);
    expect(calls).toBeGreaterThan(9_000);
    const perMinute = Math.max(
      ...callTimes.map((time, i) => callTimes.slice(i).filter((other) => other < time + 60_000).length),
    );
    expect(perMinute).toBeLessThan(10);
  });

  it("gives a local budget the same spacing", async () => {
    const budget = localBudget({ perEndpoint: true, limits: [{ intervalMs: 550, burst: 1 }] });
    expect(await budget.reserve("/a", 0)).toBe(0);
    expect(await budget.reserve("/a", 0)).toBe(550);
    expect(await budget.reserve("/b", 0)).toBe(0);
  });
});

describe("user-supplied SolisCloud API URLs", () => {
  const refused = [
    "https://evil.example.com",
    "http://www.soliscloud.com:13333",
    "https://www.soliscloud.com.evil.example",
    "https://www.soliscloud.com:8080",
    "https://user:pass@www.soliscloud.com",
    "http://169.254.169.254/latest",
  ];

  it("refuses anything but SolisCloud's own https hosts with a 400 when testing", async () => {
    const owner = await registerOwner();
    for (const apiUrl of refused) {
      const body = await expectStatus<{ error: string }>(
        await call("/api/credentials/solis/test", {
          method: "POST",
          token: owner.token,
          body: { credentials: { ...solisCredentials, apiUrl } },
        }),
        400,
      );
      expect(body.error, apiUrl).toMatch(/SolisCloud API URL/);
    }
  });

  it("refuses them when saving, and stores nothing", async () => {
    const owner = await registerOwner();
    await expectStatus(
      await call("/api/credentials", {
        method: "POST",
        token: owner.token,
        body: { provider: "solis", credentials: { ...solisCredentials, apiUrl: "https://evil.example.com" } },
      }),
      400,
    );
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM provider_connections WHERE org_id = ?")
      .bind(owner.orgId)
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
  });

  it("accepts the vendor's hosts and the configured host", () => {
    const urls = sandboxUrls("http://sandbox.test");
    for (const apiUrl of [
      "https://www.soliscloud.com:13333",
      "https://v3.soliscloud.com:13333/",
      "https://api.soliscloud.com",
      "http://sandbox.test/solis",
    ]) {
      expect(solisAdapter.outboundProblem?.({ ...solisCredentials, apiUrl }, urls), apiUrl).toBeNull();
    }
  });

  it("refuses a stored URL before any call, whatever was saved earlier", async () => {
    const seen: Request[] = [];
    const http = new ProviderHttp({
      fetch: async (r) => {
        seen.push(r);
        return new Response("{}");
      },
    });
    const error = await failure(
      readAllPages(solisAdapter, context(http), { ...solisCredentials, apiUrl: "https://evil.example.com" }),
    );
    expect(error.kind).toBe("invalid_request");
    expect(seen).toHaveLength(0);
  });

  it("lets the sandbox account through with the configured host", async () => {
    const owner = await registerOwner();
    const result = await expectStatus<{ sitesFound: number }>(
      await call("/api/credentials/solis/test", {
        method: "POST",
        token: owner.token,
        body: { credentials: { ...solisCredentials, apiUrl: `${env.SOLIS_API_URL}` } },
      }),
      200,
    );
    expect(result.sitesFound).toBe(3);
  });
});
