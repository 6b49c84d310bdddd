import type { ThrottleDecision } from "./delays";

/**
 * A share of a rate: `burst` calls at once, then one every `intervalMs` (a token bucket of `burst`
 * tokens refilled one per interval). Unlike a vendor budget, which only spaces its callers, a
 * share refuses a call beyond it: the caller is told how long until its next one.
 */
export interface RatePolicy {
  burst: number;
  intervalMs: number;
}

/**
 * GCRA over one stored time (`tat`, the theoretical arrival time; absent or past is a full
 * bucket): whether a call at `now` is within the share, and the time to keep when it is taken.
 */
export function rateCheck(
  tat: number | undefined,
  policy: RatePolicy,
  now: number,
): { allowed: true; tat: number } | { allowed: false; retryAfterMs: number } {
  const from = Math.max(tat ?? now, now);
  const allowedAt = from - (Math.max(1, policy.burst) - 1) * policy.intervalMs;
  if (allowedAt > now) return { allowed: false, retryAfterMs: allowedAt - now };
  return { allowed: true, tat: from + policy.intervalMs };
}

/** A stored share, taken at `now` when it allows: the decision and the time to keep. */
export function takeRate(
  tat: number | undefined,
  policy: RatePolicy,
  now: number,
): { decision: ThrottleDecision; tat: number | undefined } {
  const check = rateCheck(tat, policy, now);
  return check.allowed
    ? { decision: { allowed: true }, tat: check.tat }
    : { decision: { allowed: false, retryAfterMs: check.retryAfterMs }, tat };
}
