/**
 * Increasing delays instead of a lock: the first `free` attempts go ahead at once; after that
 * each attempt must wait `baseDelayMs`, doubling with every further attempt up to `maxDelayMs`.
 * A key with no attempt for `forgetAfterMs` starts again from zero.
 */
export interface ThrottlePolicy {
  free: number;
  baseDelayMs: number;
  maxDelayMs: number;
  forgetAfterMs: number;
}

export interface AttemptState {
  count: number;
  lastAt: number;
  /** Epoch ms before which the next attempt is refused. */
  nextAllowedAt: number;
}

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

export function delayAfter(policy: ThrottlePolicy, count: number): number {
  if (count < policy.free) return 0;
  return Math.min(policy.baseDelayMs * 2 ** (count - policy.free), policy.maxDelayMs);
}

/**
 * Whether one more attempt at `now` may go ahead, without counting it; `free` when it would be one
 * of the free attempts (no wait after it comes from this counter's first `free`).
 */
export type AttemptCheck = { allowed: true; free: boolean } | { allowed: false; retryAfterMs: number };

/** The counter as it stands at `now`: forgotten after `forgetAfterMs` without attempts. */
function liveState(current: AttemptState | undefined, policy: ThrottlePolicy, now: number): AttemptState {
  return current && now - current.lastAt < policy.forgetAfterMs
    ? current
    : { count: 0, lastAt: now, nextAllowedAt: 0 };
}

export function checkAttempt(
  current: AttemptState | undefined,
  policy: ThrottlePolicy,
  now: number,
): AttemptCheck {
  const state = liveState(current, policy, now);
  if (now < state.nextAllowedAt) return { allowed: false, retryAfterMs: state.nextAllowedAt - now };
  return { allowed: true, free: state.count < policy.free };
}

/** The counter after one more attempt at `now`, and whether that attempt may go ahead. */
export function nextAttemptState(
  current: AttemptState | undefined,
  policy: ThrottlePolicy,
  now: number,
): { state: AttemptState; decision: ThrottleDecision } {
  const state = liveState(current, policy, now);
  if (now < state.nextAllowedAt) {
    return { state, decision: { allowed: false, retryAfterMs: state.nextAllowedAt - now } };
  }
  const count = state.count + 1;
  const delayMs = delayAfter(policy, count);
  return {
    state: { count, lastAt: now, nextAllowedAt: delayMs > 0 ? now + delayMs : 0 },
    decision: { allowed: true },
  };
}
