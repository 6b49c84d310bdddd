import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { sandboxAccounts } from "../../sandbox/accounts";
import { createSandbox } from "../../sandbox/app";
import { VirtualClock } from "../../sandbox/virtual-clock";
import type { ProviderId } from "../../schema/api/providers";
import { upsertConnection } from "../../worker/data/connections";
import { sealCredentials } from "../../worker/lib/connection-secrets";
import { loadKeyring } from "../../worker/lib/credentials-keyring";
import { createDb } from "../../worker/lib/db";
import { SYNC_INTERVAL_MS } from "../../worker/sync/schedule";
import { syncConnection } from "../../worker/sync/sync-connection";
import { registerOwner } from "../worker/helpers";

/**
 * Sync throughput for the 500-plant sandbox account of each provider. The rate-limit spacing
 * runs on a virtual clock, so the report separates Sunfleet's own cost (wall time: vendor
 * emulation, normalisation, D1 writes) from the time the vendors' limits impose.
 */
interface VendorLimit {
  /** Calls the vendor allows per 5-minute sync cycle for one credential. */
  callsPer5Min: number;
  source: string;
}

const cases: { provider: ProviderId; credentials: Record<string, string>; limit: VendorLimit }[] = [
  {
    provider: "solis",
    credentials: { keyId: sandboxAccounts.solis[1].keyId, keySecret: sandboxAccounts.solis[1].keySecret },
    limit: { callsPer5Min: 2 * 300, source: "2 calls/s per interface (SolisCloud API v2)" },
  },
  {
    provider: "fronius",
    credentials: {
      accessKeyId: sandboxAccounts.fronius[1].accessKeyId,
      accessKeyValue: sandboxAccounts.fronius[1].accessKeyValue,
    },
    limit: {
      callsPer5Min: 10 * 300,
      source: "no documented limit; billed per data point (own spacing 100 ms)",
    },
  },
  {
    provider: "sma",
    credentials: {
      clientId: sandboxAccounts.sma[1].clientId,
      clientSecret: sandboxAccounts.sma[1].clientSecret,
      ownerEmail: sandboxAccounts.sma[1].ownerEmail,
    },
    limit: { callsPer5Min: 60 * 5, source: "undisclosed per-credential 5-minute window (assumed 60/min)" },
  },
  {
    provider: "solax",
    credentials: {
      apiType: "openapi",
      clientId: sandboxAccounts.solax[1].clientId,
      clientSecret: sandboxAccounts.solax[1].clientSecret,
    },
    limit: { callsPer5Min: 100 * 5, source: "100 calls/min (SolaX Developer OpenAPI)" },
  },
];

const rows: string[] = [];

for (const { provider, credentials, limit } of cases) {
  it(`syncs the 500-plant ${provider} sandbox account`, async () => {
    const owner = await registerOwner(`Bench ${provider}`);
    const db = createDb(env.DB);
    // Budget waits and retries run on a virtual clock whose sleepers wake in time order, so lists
    // read side by side are timed as they would be on the real clock.
    const clock = new VirtualClock(Date.UTC(2026, 5, 21, 10, 0, 0));
    const sandbox = createSandbox({ now: clock.now, clock: clock.now });
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
    const deps = {
      db,
      env,
      now: clock.now,
      fetch: clock.track(async (request: Request) => sandbox.fetch(request)),
      sleep: clock.sleep,
    };
    for (const round of ["first", "steady"] as const) {
      const virtualStart = clock.now();
      const wallStart = Date.now();
      const result = await syncConnection(deps, connectionId, "manual");
      const wallMs = Date.now() - wallStart;
      expect(result.status, JSON.stringify(result)).toBe("success");
      if (result.status !== "success") return;
      const run = await env.DB.prepare("SELECT provider_calls AS calls FROM sync_runs WHERE id = ?")
        .bind(result.runId)
        .first<{ calls: number }>();
      const calls = run?.calls ?? 0;
      const atLimitMs = clock.now() - virtualStart;
      const budget = (calls / limit.callsPer5Min) * 100;
      rows.push(
        [
          provider.padEnd(8),
          round.padEnd(7),
          String(result.sitesCount).padStart(6),
          String(result.invertersCount).padStart(6),
          String(calls).padStart(6),
          `${(wallMs / 1000).toFixed(1)} s`.padStart(9),
          `${(result.sitesCount / (wallMs / 1000)).toFixed(0)}/s`.padStart(9),
          `${(atLimitMs / 60_000).toFixed(1)} min`.padStart(10),
          `${budget.toFixed(0)} %`.padStart(8),
          atLimitMs <= SYNC_INTERVAL_MS ? "yes" : "NO ",
          limit.source,
        ].join("  "),
      );
      // The next round starts one sync interval later, as the scheduler would.
      clock.advance(SYNC_INTERVAL_MS);
    }
  });
}

it("prints the report", () => {
  const header = [
    "provider",
    "round  ",
    " plants",
    "  invs",
    " calls",
    "     wall",
    "throughput",
    "at limits",
    "budget",
    "fits 5 min",
    "vendor limit",
  ].join("  ");
  console.log(
    [
      "",
      "Sync throughput, 500 sandbox plants per provider (wall = Sunfleet + sandbox emulation in workerd;",
      "at limits = time the vendor's rate limit imposes; budget = share of the 5-minute call allowance).",
      header,
      ...rows,
      "",
    ].join("\n"),
  );
  expect(rows.length).toBe(cases.length * 2);
});
