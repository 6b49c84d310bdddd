import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

/**
 * Vendor call budgets. A vendor limits calls per credential (and SolisCloud per credential and
 * endpoint), whatever number of invocations work on that credential at once, so the bucket lives
 * in one Durable Object per credential and every call asks it for a slot first.
 *
 * The bucket is a GCRA (generic cell rate algorithm) token bucket: each limit keeps a theoretical
 * arrival time, a call may start once that time minus the burst allowance has come, and the
 * answer is how long to wait, so callers are spaced, and refused only when they will not wait
 * that long (a slot further off than the caller's longest wait is not taken).
 */

export interface CallLimit {
  /** Steady spacing between calls: the vendor's rate with a safety margin. */
  intervalMs: number;
  /** Calls allowed back to back before the spacing applies (1: never two closer than intervalMs). */
  burst: number;
}

/** How one credential's calls are budgeted; declared by each adapter. */
export interface CallPlan {
  /**
   * What identifies the credential to the vendor (a key id, a client id), and the secret that
   * proves it (a key secret, a client secret; a token that is its own secret is both). The bucket
   * is keyed by a SHA-256 of the two, never by either in clear: calls made with a wrong secret
   * for someone else's key id fall in a bucket of their own, so they can neither take the real
   * credential's slots nor be slowed by them.
   */
  key: string;
  secret: string;
  /** The vendor limits each endpoint on its own (SolisCloud): one bucket per credential and endpoint. */
  perEndpoint: boolean;
  /** Every limit applies at once (SolaX's token API: per minute and per day). */
  limits: CallLimit[];
}

/**
 * What ProviderHttp asks before each call: the wait in ms before `endpoint` may be called. A wait
 * longer than `maxWaitMs` is answered without taking the slot, so a caller that gives up leaves
 * it to others.
 */
export interface CallBudget {
  reserve(endpoint: string, now: number, maxWaitMs?: number): Promise<number>;
}

/**
 * One reservation against `tats` (theoretical arrival times, one per limit, 0 when unused):
 * the wait from `now`, and the times to keep for the next caller.
 */
export function reserveSlot(
  tats: readonly number[],
  limits: readonly CallLimit[],
  now: number,
): { waitMs: number; tats: number[] } {
  let startAt = now;
  limits.forEach((limit, i) => {
    const tat = Math.max(tats[i] ?? 0, now);
    startAt = Math.max(startAt, tat - (Math.max(1, limit.burst) - 1) * limit.intervalMs);
  });
  const next = limits.map((limit, i) => Math.max(tats[i] ?? 0, startAt) + limit.intervalMs);
  return { waitMs: startAt - now, tats: next };
}

/** A bucket held in memory: for callers without a shared one (weather lookups, adapter tests). */
export function localBudget(plan: Pick<CallPlan, "perEndpoint" | "limits">): CallBudget {
  const tats = new Map<string, number[]>();
  return {
    async reserve(endpoint, now, maxWaitMs = Number.POSITIVE_INFINITY) {
      const key = plan.perEndpoint ? endpoint : "*";
      const slot = reserveSlot(tats.get(key) ?? [], plan.limits, now);
      if (slot.waitMs <= maxWaitMs) tats.set(key, slot.tats);
      return slot.waitMs;
    },
  };
}

/**
 * The shared bucket of one vendor credential. Its state is a row per endpoint and limit in the
 * object's SQLite storage, so a restarted object keeps the spacing it promised.
 */
export class VendorBudget extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS slots (endpoint TEXT NOT NULL, limit_index INTEGER NOT NULL, tat REAL NOT NULL, PRIMARY KEY (endpoint, limit_index))",
    );
  }

  /**
   * How long the caller waits before calling `endpoint`; the slot is its from then on, unless the
   * wait is longer than `maxWaitMs` (the caller will not wait: nothing is taken).
   */
  reserve(
    endpoint: string,
    limits: CallLimit[],
    now: number,
    maxWaitMs: number = Number.POSITIVE_INFINITY,
  ): number {
    const sql = this.ctx.storage.sql;
    const tats: number[] = limits.map(() => 0);
    for (const row of sql.exec<{ limit_index: number; tat: number }>(
      "SELECT limit_index, tat FROM slots WHERE endpoint = ?",
      endpoint,
    )) {
      if (row.limit_index < tats.length) tats[row.limit_index] = row.tat;
    }
    const slot = reserveSlot(tats, limits, now);
    if (slot.waitMs > maxWaitMs) return slot.waitMs;
    slot.tats.forEach((tat, index) => {
      sql.exec(
        "INSERT INTO slots (endpoint, limit_index, tat) VALUES (?, ?, ?) ON CONFLICT (endpoint, limit_index) DO UPDATE SET tat = excluded.tat",
        endpoint,
        index,
        tat,
      );
    });
    return slot.waitMs;
  }
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The Durable Object name of a credential's bucket: provider and a SHA-256 of its key and secret. */
export async function budgetName(provider: string, key: string, secret: string): Promise<string> {
  return `${provider}:${await sha256Hex(JSON.stringify([provider, key, secret]))}`;
}

/** The shared bucket for one credential, as ProviderHttp uses it. */
export async function sharedBudget(
  namespace: DurableObjectNamespace<VendorBudget>,
  provider: string,
  plan: CallPlan,
): Promise<CallBudget> {
  const stub = namespace.get(namespace.idFromName(await budgetName(provider, plan.key, plan.secret)));
  return {
    reserve: (endpoint, now, maxWaitMs) =>
      stub.reserve(plan.perEndpoint ? endpoint : "*", plan.limits, now, maxWaitMs),
  };
}
