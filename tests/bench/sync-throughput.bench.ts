import { env } from "cloudflare:workers";
import { expect, inject, it } from "vitest";
import { sandboxAccounts } from "../../sandbox/accounts";
import { solisPlants } from "../../sandbox/solis";
import type { ProviderId } from "../../schema/api/providers";
import { upsertConnection } from "../../worker/data/connections";
import type { SyncMessage } from "../../worker/env";
import { sealCredentials } from "../../worker/lib/connection-secrets";
import { loadKeyring } from "../../worker/lib/credentials-keyring";
import { createDb } from "../../worker/lib/db";
import { consumeSyncMessage } from "../../worker/sync/queue-consumer";
import { cadenceMs, SYNC_INTERVAL_MS } from "../../worker/sync/schedule";
import { syncConnection } from "../../worker/sync/sync-connection";
import type { SyncDeps } from "../../worker/sync/types";
import { registerOwner } from "../worker/helpers";

/**
 * Sync runs on the real clock against the sandbox's scale accounts, reached over HTTP (the
 * worker's outbound fetch, answered by the benchmark sandbox, which refuses a share of every
 * vendor's calls with its rate-limit error). The first run starts as saving credentials starts it
 * (20 s in the request, then queue invocations of up to a minute each), the steady run is the
 * next cycle. Reported per provider: plants stored (each once), time against the vendor's floor
 * (the time its documented limit needs for the calls made), the share of the 5-minute call
 * allowance, the invocations the run used and the longest of them, and the cadence a run that
 * long gets. The steady run reads live values only (the first read the plant and device lists).
 */
interface VendorLimit {
  /** Calls the vendor allows per 5-minute cycle for one credential. */
  callsPer5Min: number;
  /** Time the vendor's limit needs for `calls` calls: the floor no client can beat. */
  floorMs: (calls: number, plants: number) => number;
  source: string;
}

const solisInverterPages = (plants: number) =>
  Math.ceil(
    solisPlants({ ...sandboxAccounts.solis[2], plants }).reduce((n, p) => n + p.inverters.length, 0) / 100,
  );

const cases: {
  provider: ProviderId;
  credentials: Record<string, string>;
  plants: number;
  limit: VendorLimit;
}[] = [
  {
    provider: "solis",
    credentials: { keyId: sandboxAccounts.solis[2].keyId, keySecret: sandboxAccounts.solis[2].keySecret },
    plants: sandboxAccounts.solis[2].plants,
    limit: {
      callsPer5Min: 2 * 300 * 3,
      // Each list at 2 calls/s on its own: the longest list (inverters) sets the floor.
      floorMs: (_calls, plants) => (Math.max(Math.ceil(plants / 100), solisInverterPages(plants)) - 1) * 500,
      source: "2 calls/s per endpoint (SolisCloud API v2); three lists side by side",
    },
  },
  {
    provider: "fronius",
    credentials: {
      accessKeyId: sandboxAccounts.fronius[1].accessKeyId,
      accessKeyValue: sandboxAccounts.fronius[1].accessKeyValue,
    },
    plants: sandboxAccounts.fronius[1].plants,
    limit: {
      callsPer5Min: 10 * 300,
      floorMs: (calls) => calls * 100,
      source: "no documented limit; own spacing 10 calls/s",
    },
  },
  {
    provider: "sma",
    credentials: {
      clientId: sandboxAccounts.sma[1].clientId,
      clientSecret: sandboxAccounts.sma[1].clientSecret,
      ownerEmail: sandboxAccounts.sma[1].ownerEmail,
    },
    plants: sandboxAccounts.sma[1].plants,
    limit: {
      callsPer5Min: 60 * 5,
      floorMs: (calls) => calls * 1000,
      source: "undisclosed per-credential window (assumed 60/min)",
    },
  },
  {
    provider: "solax",
    credentials: {
      apiType: "openapi",
      clientId: sandboxAccounts.solax[2].clientId,
      clientSecret: sandboxAccounts.solax[2].clientSecret,
    },
    // Residential (business type 1) and commercial (type 4) plants.
    plants: sandboxAccounts.solax[2].plants + sandboxAccounts.solax[2].commercialPlants,
    limit: {
      callsPer5Min: 100 * 5,
      floorMs: (calls) => calls * 600,
      source: "100 calls/min (SolaX Developer OpenAPI)",
    },
  },
];

const selected = new Set(inject("benchProviders").split(","));
const rows: string[] = [];

for (const { provider, credentials, plants, limit } of cases.filter((c) => selected.has(c.provider))) {
  it(`syncs the ${plants}-plant ${provider} sandbox account on the real clock`, async () => {
    const owner = await registerOwner(`Bench ${provider}`);
    const db = createDb(env.DB);
    const connectionId = crypto.randomUUID();
    const sealed = await sealCredentials(await loadKeyring(env), owner.orgId, connectionId, credentials);
    await upsertConnection(db, {
      id: connectionId,
      orgId: owner.orgId,
      provider,
      ...sealed,
      status: "active",
      nextSyncAt: null,
      createdAt: Date.now(),
      updatedAt: Date.now(),
    });
    const queue: SyncMessage[] = [];
    // The real transport, the credential's shared budget and the real clock; the queue is drained here.
    const deps: SyncDeps = {
      db,
      env,
      now: () => Date.now(),
      enqueue: async (message) => {
        queue.push(message);
      },
    };
    for (const round of ["first", "steady"] as const) {
      const startedAt = Date.now();
      // The unit in flight at the answer finishes behind it (a request's waitUntil) and hands the
      // next unit to the queue: drained once it has.
      const behind: Promise<unknown>[] = [];
      const first = await syncConnection(deps, connectionId, round === "first" ? "save" : "cron", 20_000, {
        waitUntil: (promise) => void behind.push(promise),
      });
      await Promise.all(behind);
      while (queue.length > 0) {
        const message = queue.shift();
        if (message) await consumeSyncMessage(deps, message);
      }
      const elapsedMs = Date.now() - startedAt;
      if (first.status === "busy") throw new Error("connection busy");
      // A scheduled run that went well within its first invocation keeps no row: its answer holds it.
      const held = {
        status: first.run.status,
        error: first.run.error,
        calls: first.run.providerCalls,
        systems: first.run.systemsStored,
        invocations: first.run.invocations,
        longest: first.run.longestInvocationMs,
      };
      const stored = await env.DB.prepare(
        "SELECT status, error, provider_calls AS calls, systems_stored AS systems, invocations, longest_invocation_ms AS longest FROM sync_runs WHERE id = ?",
      )
        .bind(first.runId)
        .first<{
          status: string;
          error: string | null;
          calls: number;
          systems: number;
          invocations: number;
          longest: number;
        }>();
      const run = stored ?? held;
      expect(run.status, run.error ?? "").toBe("success");
      const listed = await env.DB.prepare(
        "SELECT count(*) AS n, count(DISTINCT provider_system_id) AS distinctN FROM monitoring_systems WHERE org_id = ?",
      )
        .bind(owner.orgId)
        .first<{ n: number; distinctN: number }>();
      expect(listed?.n).toBe(listed?.distinctN);
      expect(listed?.n).toBeGreaterThanOrEqual(plants);
      const calls = run.calls;
      const floorMs = limit.floorMs(calls, plants);
      rows.push(
        [
          provider.padEnd(8),
          round.padEnd(7),
          String(listed?.n ?? 0).padStart(6),
          String(calls).padStart(6),
          `${(elapsedMs / 1000).toFixed(1)} s`.padStart(9),
          `${(floorMs / 1000).toFixed(1)} s`.padStart(9),
          `${(elapsedMs / Math.max(1, floorMs)).toFixed(2)}x`.padStart(7),
          `${((calls / limit.callsPer5Min) * 100).toFixed(0)} %`.padStart(7),
          String(run.invocations).padStart(5),
          `${(run.longest / 1000).toFixed(1)} s`.padStart(8),
          elapsedMs <= SYNC_INTERVAL_MS ? "yes" : "NO ",
          `${cadenceMs(SYNC_INTERVAL_MS, elapsedMs) / 60_000} min`.padStart(7),
          limit.source,
        ].join("  "),
      );
    }
  });
}

it("prints the report", () => {
  const header = [
    "provider",
    "round  ",
    "plants",
    " calls",
    "     time",
    "    floor",
    " ratio",
    " budget",
    "invoc",
    " longest",
    "fits 5 min",
    "cadence",
    "vendor limit",
  ].join("  ");
  console.log(
    [
      "",
      `Sync runs on the real clock, sandbox over HTTP, ${inject("benchRateLimitPercent")} % of vendor calls refused with the vendor's rate-limit error.`,
      "time = start to last plant stored; floor = what the vendor's limit needs for those calls; budget = share of the 5-minute call allowance;",
      "invoc = invocations the run used (the request's 20 s, then queue invocations), longest = the longest of them;",
      "cadence = the cycle a connection whose runs take that long is synced at (a steady run's is the connection's).",
      header,
      ...rows,
      "",
    ].join("\n"),
  );
  expect(rows.length).toBeGreaterThan(0);
});
