import { redactSecrets } from "./redact";

/** Why a provider call failed; the sync engine decides retry and backoff from the kind. */
export type ProviderErrorKind =
  | "auth" // bad credentials: stop retrying, mark the connection as needing attention
  | "rate_limited" // the vendor's limit: retry after `retryAfterMs`
  | "unavailable" // 5xx, network failure
  | "timeout"
  | "malformed" // unreadable or unexpected answer
  | "invalid_request" // the vendor refused our request (4xx other than auth)
  | "unreadable_credentials"; // the stored credentials no longer decrypt: the user must save them again

/** Messages are stored and shown: never longer than this. */
const MAX_MESSAGE_CHARS = 1000;

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly retryAfterMs?: number,
    /** The vendor's HTTP status, when the error is one. */
    readonly status?: number,
  ) {
    // Messages quote vendors; whatever looks like a credential is taken out before anyone stores it.
    const clean = redactSecrets(message);
    super(clean.length > MAX_MESSAGE_CHARS ? `${clean.slice(0, MAX_MESSAGE_CHARS - 1)}…` : clean);
    this.name = "ProviderError";
  }

  get retryable(): boolean {
    return this.kind !== "auth" && this.kind !== "invalid_request" && this.kind !== "unreadable_credentials";
  }
}

/**
 * A steady cycle's vendor answer shows the stored plant and device lists are out of date (a plant
 * or device the vendor no longer knows): the run reads the lists again instead of failing.
 */
export class StaleListsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StaleListsError";
  }
}

/**
 * The invocation working on a sync unit is ending (a user's request past its answer and grace):
 * the unit's calls were stopped and the unit goes to the queue, which does it again from the same
 * cursor. Not a ProviderError, so no adapter mistakes it for a vendor's answer.
 */
export class CallsStopped extends Error {
  constructor() {
    super("The invocation handed its unit on before the vendor answered");
    this.name = "CallsStopped";
  }
}
