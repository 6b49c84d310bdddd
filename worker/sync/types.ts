import type { Env, SyncMessage } from "../env";
import type { Db } from "../lib/db";
import type { CallBudget } from "../providers/budget";

/** What the sync machinery works with: storage, the environment, a clock, and the seams tests use. */
export interface SyncDeps {
  db: Db;
  env: Env;
  now: () => number;
  /** The vendors' transport; tests and the benchmark hand in the sandbox. */
  fetch?: (request: Request) => Promise<Response>;
  /** Per-call limit; 10 s unless a test shortens it. */
  callTimeoutMs?: number;
  /** How the rate-limit spacing and retries wait; a test or benchmark may advance a virtual clock instead. */
  sleep?: (ms: number) => Promise<void>;
  /** The call budget; the credential's shared one unless a test on a fake clock hands in its own. */
  budget?: CallBudget;
  /** Where the next unit goes when this invocation stops; the sync queue unless a test collects them. */
  enqueue?: (message: SyncMessage, options?: { delaySeconds?: number }) => Promise<unknown>;
  /** Aborted when this invocation must hand its unit in flight to the queue (a user's request past its answer). */
  signal?: AbortSignal;
  /** When the invocation working on the run began (epoch ms); its last unit counts the invocation. */
  invokedAt?: number;
}

/**
 * What one unit did: the run goes on, ended, was not this message's to work on, made way for a
 * run that comes first (a history unit while the connection's snapshot is due) and is sent again
 * after YIELD_DELAY_SECONDS, or was stopped with the invocation and goes to the queue at once.
 */
export type UnitOutcome = "continue" | "finished" | "stale" | "yield" | "handoff";

/** Where a sync's messages go: the test's collector, or the sync queue. */
export const enqueueOf = (deps: Pick<SyncDeps, "enqueue" | "env">): NonNullable<SyncDeps["enqueue"]> =>
  deps.enqueue ?? ((message, options) => deps.env.SYNC_QUEUE.send(message, options));
