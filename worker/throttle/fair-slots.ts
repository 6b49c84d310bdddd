import { type RatePolicy, rateCheck } from "./rate";

/**
 * A shared outbound service with one rate for the whole deployment (the geocoder's one call a
 * second) handed out fairly: each call is charged to its callers' shares (an organisation's, an
 * API key's) before it may queue, and one holder (an organisation) may have only a few calls
 * waiting in the queue at once, so one tenant can neither use the service up nor fill the queue
 * that every other tenant waits in.
 */

/** A budget a call is charged to. */
export interface FairShare {
  scope: string;
  policy: RatePolicy;
}

export interface FairSlotRequest {
  /** Every share is charged, or none: a call refused by one costs the others nothing. */
  shares: FairShare[];
  /** Whose waiting calls are counted (the organisation). */
  holder: string;
  maxWaitingPerHolder: number;
  /** Time between two calls of the service, from anyone. */
  spacingMs: number;
  /** How far ahead of now the queue may reach before a call is refused as busy. */
  maxQueueMs: number;
  now: number;
}

export type FairSlotDecision =
  /** The call leaves at `slotAt`. */
  | { outcome: "slot"; slotAt: number }
  /** The caller's own share is used up, or it already has its calls waiting. */
  | { outcome: "over_share"; retryAfterMs: number }
  /** The queue is full with other callers' calls: the service itself is busy. */
  | { outcome: "busy"; retryAfterMs: number };

/** What the queue keeps per scope: its share's time (GCRA) and the slots its calls wait for. */
export interface ScopeState {
  tat?: number;
  waiting?: number[];
}

/** A scope whose share is full again and which has no call waiting holds nothing worth keeping. */
export const isIdle = (state: ScopeState, now: number) =>
  (state.tat ?? 0) <= now && (state.waiting ?? []).every((slot) => slot <= now);

/**
 * One request against the queue's state: the decision, and (for a slot) the state to keep.
 * `scopes` holds the current state of every scope the request names.
 */
export function decideFairSlot(
  nextAt: number,
  scopes: Readonly<Record<string, ScopeState | undefined>>,
  request: FairSlotRequest,
): { decision: FairSlotDecision; nextAt: number; updates: Record<string, ScopeState> } {
  const { now } = request;
  const refused = (decision: FairSlotDecision) => ({ decision, nextAt, updates: {} });
  const tats: Record<string, number> = {};
  let overShareMs = 0;
  for (const share of request.shares) {
    const check = rateCheck(scopes[share.scope]?.tat, share.policy, now);
    if (check.allowed) tats[share.scope] = check.tat;
    else overShareMs = Math.max(overShareMs, check.retryAfterMs);
  }
  const waiting = (scopes[request.holder]?.waiting ?? []).filter((slot) => slot > now);
  if (waiting.length >= request.maxWaitingPerHolder) {
    overShareMs = Math.max(overShareMs, Math.min(...waiting) - now);
  }
  if (overShareMs > 0) return refused({ outcome: "over_share", retryAfterMs: overShareMs });
  const slotAt = Math.max(now, nextAt);
  if (slotAt - now > request.maxQueueMs) {
    return refused({ outcome: "busy", retryAfterMs: slotAt - now - request.maxQueueMs });
  }
  const updates: Record<string, ScopeState> = {};
  for (const [scope, tat] of Object.entries(tats)) updates[scope] = { ...scopes[scope], tat };
  updates[request.holder] = {
    ...scopes[request.holder],
    ...updates[request.holder],
    waiting: [...waiting, slotAt],
  };
  return { decision: { outcome: "slot", slotAt }, nextAt: slotAt + request.spacingMs, updates };
}
