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
import {
  decideFairSlot,
  type FairSlotDecision,
  type FairSlotRequest,
  isIdle,
  type ScopeState,
} from "./fair-slots";
import { type RatePolicy, takeRate } from "./rate";

const STATE = "state";
const WINDOW = "window";
const RATE = "rate";
const QUEUE_NEXT_AT = "queue:next";
const QUEUE_SCOPE = "queue:scope:";
const QUEUE_SWEPT_AT = "queue:swept";
/** How often a shared queue drops the state of scopes that hold nothing any more. */
const QUEUE_SWEEP_EVERY_MS = 10 * 60 * 1000;

/**
 * One instance per counter key (an e-mail, a client IP, a user, an organisation's share), or per
 * shared outbound service for its fair queue: a Durable Object runs one call at a time, so
 * counting an attempt and deciding on it is a single atomic step however many requests arrive
 * together.
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

  /** Takes one call from a share of a rate (an organisation's connection tests); refused calls cost nothing. */
  async takeRate(policy: RatePolicy, now: number): Promise<ThrottleDecision> {
    const { decision, tat } = takeRate(this.ctx.storage.kv.get<number>(RATE), policy, now);
    if (tat !== undefined) this.ctx.storage.kv.put(RATE, tat);
    return decision;
  }

  /**
   * A slot in this service's fair queue (worker/throttle/fair-slots.ts): the callers' shares, the
   * holder's waiting calls and the queue itself are read and changed in this one call.
   */
  async reserveFairSlot(request: FairSlotRequest): Promise<FairSlotDecision> {
    const kv = this.ctx.storage.kv;
    const names = [...new Set([...request.shares.map((share) => share.scope), request.holder])];
    const scopes = Object.fromEntries(names.map((name) => [name, kv.get<ScopeState>(QUEUE_SCOPE + name)]));
    const { decision, nextAt, updates } = decideFairSlot(kv.get<number>(QUEUE_NEXT_AT) ?? 0, scopes, request);
    if (decision.outcome === "slot") {
      kv.put(QUEUE_NEXT_AT, nextAt);
      for (const [name, state] of Object.entries(updates)) kv.put(QUEUE_SCOPE + name, state);
    }
    this.sweepQueue(request.now);
    return decision;
  }

  /** Drops scopes whose share is full again and which wait for nothing: the same as never seen. */
  private sweepQueue(now: number): void {
    const kv = this.ctx.storage.kv;
    if (now - (kv.get<number>(QUEUE_SWEPT_AT) ?? 0) < QUEUE_SWEEP_EVERY_MS) return;
    const idle = [...kv.list<ScopeState>({ prefix: QUEUE_SCOPE })].filter(([, state]) => isIdle(state, now));
    for (const [key] of idle) kv.delete(key);
    kv.put(QUEUE_SWEPT_AT, now);
  }

  /** Forgets every attempt (the owner proved who they are). */
  async clear(): Promise<void> {
    this.ctx.storage.kv.delete(STATE);
  }
}
