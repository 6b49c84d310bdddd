import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import {
  type AttemptCheck,
  type AttemptState,
  checkAttempt,
  nextAttemptState,
  type ThrottleDecision,
  type ThrottlePolicy,
} from "./delays";

const STATE = "state";
const WINDOW = "window";

/**
 * One instance per counter key (an e-mail, a client IP, a user): a Durable Object runs one call
 * at a time, so counting an attempt and deciding on it is a single atomic step however many
 * requests arrive together.
 */
export class Throttle extends DurableObject<Env> {
  /** Counts one attempt and answers whether it may go ahead now. */
  async take(policy: ThrottlePolicy, now: number): Promise<ThrottleDecision> {
    const { state, decision } = nextAttemptState(this.ctx.storage.kv.get<AttemptState>(STATE), policy, now);
    this.ctx.storage.kv.put(STATE, state);
    return decision;
  }

  /** Whether an attempt at `now` would go ahead (and be one of the free ones), counting nothing. */
  async check(policy: ThrottlePolicy, now: number): Promise<AttemptCheck> {
    return checkAttempt(this.ctx.storage.kv.get<AttemptState>(STATE), policy, now);
  }

  /** Gives one attempt back (a successful one, which should not count against a shared address). */
  async forgive(): Promise<void> {
    const state = this.ctx.storage.kv.get<AttemptState>(STATE);
    if (state && state.count > 0) this.ctx.storage.kv.put(STATE, { ...state, count: state.count - 1 });
  }

  /**
   * Counts one request in a fixed window of `windowMs` and answers whether it is within `limit`
   * (an API key's request rate).
   */
  async countInWindow(limit: number, windowMs: number, now: number): Promise<ThrottleDecision> {
    const windowStart = now - (now % windowMs);
    const current = this.ctx.storage.kv.get<{ windowStart: number; count: number }>(WINDOW);
    const count = current?.windowStart === windowStart ? current.count + 1 : 1;
    this.ctx.storage.kv.put(WINDOW, { windowStart, count });
    return count <= limit
      ? { allowed: true }
      : { allowed: false, retryAfterMs: windowStart + windowMs - now };
  }

  /** Forgets every attempt (the owner proved who they are). */
  async clear(): Promise<void> {
    this.ctx.storage.kv.delete(STATE);
  }
}
