import type { Env } from "../env";
import { tooManyRequests } from "../lib/errors";
import { sha256Hex } from "../lib/ids";
import type { ThrottleDecision, ThrottlePolicy } from "./delays";

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;

const policy = (free: number, baseDelayMs: number, maxDelayMs: number): ThrottlePolicy => ({
  free,
  baseDelayMs,
  maxDelayMs,
  forgetAfterMs: HOUR_MS,
});

/**
 * The counters, each keyed by what it protects. Guessing one account from one address meets the
 * strict e-mail+IP counter; the owner, signing in from elsewhere, only meets the looser per-email
 * counter, which a distributed attack must fill first. The per-IP counter limits spraying one
 * password across many accounts.
 */
export const throttlePolicies = {
  loginEmailIp: policy(5, 30 * SECOND_MS, 15 * MINUTE_MS),
  loginEmail: policy(20, 30 * SECOND_MS, 15 * MINUTE_MS),
  loginIp: policy(20, 30 * SECOND_MS, 15 * MINUTE_MS),
  signupEmail: policy(5, 30 * SECOND_MS, 15 * MINUTE_MS),
  signupIp: policy(10, MINUTE_MS, HOUR_MS),
  inviteEmail: policy(5, 30 * SECOND_MS, 15 * MINUTE_MS),
  inviteIp: policy(10, 30 * SECOND_MS, 15 * MINUTE_MS),
  passwordUser: policy(5, 30 * SECOND_MS, 15 * MINUTE_MS),
  // Each reset request sends a mail: few per address, so nobody's inbox can be flooded.
  resetEmail: policy(3, 5 * MINUTE_MS, HOUR_MS),
  resetIp: policy(10, MINUTE_MS, HOUR_MS),
} as const satisfies Record<string, ThrottlePolicy>;

export type ThrottleName = keyof typeof throttlePolicies;

/**
 * Broader counters that count an attempt only while the narrower one named here still lets
 * attempts through at once. One address guessing one account's password is held back by the
 * narrow e-mail+address counter alone after its free attempts; were its delayed attempts counted
 * on the per-e-mail counter too, they would fill it and keep the owner out from everywhere
 * (and hours of one attempt per 15 minutes would do so). So one address adds at most the narrow
 * counter's free attempts (5) to the per-e-mail counter (20): only guesses spread over several
 * addresses, the attack it exists for, can fill it.
 */
const countedWhileFreeOn: Partial<Record<ThrottleName, ThrottleName>> = {
  loginEmail: "loginEmailIp",
  loginIp: "loginEmailIp",
};

export interface ThrottleKey {
  name: ThrottleName;
  /** What is counted: an e-mail, an address, a user id, or several joined. */
  subject: string;
}

/** The counter's Durable Object; named by a hash so e-mails and addresses are not object names. */
async function counter(env: Env, key: ThrottleKey) {
  return env.THROTTLE.get(env.THROTTLE.idFromName(await sha256Hex(`${key.name}:${key.subject}`)));
}

function refuseUnlessAllowed(decisions: ThrottleDecision[], message: string): void {
  const waitMs = Math.max(0, ...decisions.map((d) => (d.allowed ? 0 : d.retryAfterMs)));
  if (decisions.some((d) => !d.allowed))
    throw tooManyRequests(message, Math.max(1, Math.ceil(waitMs / 1000)));
}

/**
 * Counts one attempt on the keys, or throws 429 with Retry-After (the longest wait of the keys
 * that refused). Every counter is asked first and none is charged when any refuses: a refused
 * attempt costs nothing, so hammering a refusing counter cannot fill the others (a victim's
 * per-e-mail counter from one address). A broader counter is charged only while its narrower
 * one is within its free attempts (countedWhileFreeOn). Each counter's own take is atomic, so two
 * attempts racing between the check and the take cannot pass a counter's limit either.
 */
export async function takeAttempt(
  env: Env,
  keys: ThrottleKey[],
  now: number,
  message: string,
): Promise<void> {
  const counters = await Promise.all(
    keys.map(async (key) => {
      const stub = await counter(env, key);
      const policy = throttlePolicies[key.name];
      return { key, stub, policy, check: await stub.check(policy, now) };
    }),
  );
  refuseUnlessAllowed(
    counters.map((c) => c.check),
    message,
  );
  const free = new Map(counters.map(({ key, check }) => [key.name, check.allowed && check.free]));
  const charged = counters.filter(({ key }) => {
    const narrower = countedWhileFreeOn[key.name];
    return narrower === undefined || free.get(narrower) !== false;
  });
  refuseUnlessAllowed(await Promise.all(charged.map(({ stub, policy }) => stub.take(policy, now))), message);
}

/** After a success: `clear` forgets the keys' attempts, `forgive` gives this one attempt back. */
export async function settleAttempt(env: Env, keys: ThrottleKey[], how: "clear" | "forgive"): Promise<void> {
  await Promise.all(
    keys.map(async (key) => {
      const stub = await counter(env, key);
      await (how === "clear" ? stub.clear() : stub.forgive());
    }),
  );
}
