/** How long one vendor call may take before it is abandoned (production; tests shorten it). */
export const PROVIDER_CALL_TIMEOUT_MS = 10_000;
