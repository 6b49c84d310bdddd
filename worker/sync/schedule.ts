import type { ProviderErrorKind } from "../providers/errors";

/** Live power is polled every 5 minutes: the vendors refresh their data no faster. */
export const SYNC_INTERVAL_MS = 5 * 60 * 1000;
export const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** A sync holds its connection this long at most; a crashed sync frees it by expiry. */
export const SYNC_LEASE_MS = 10 * 60 * 1000;

/** Exponential backoff per connection: 5, 10, 20, 40 minutes, then hourly. */
export function backoffMs(consecutiveFailures: number, retryAfterMs?: number): number {
  const exponential = SYNC_INTERVAL_MS * 2 ** Math.max(0, consecutiveFailures - 1);
  return Math.min(MAX_BACKOFF_MS, Math.max(exponential, retryAfterMs ?? 0));
}

/** The failure in plain words for the connection's health panel. */
export function describeFailure(
  kind: ProviderErrorKind | "unexpected",
  provider: string,
  detail: string,
): string {
  switch (kind) {
    case "auth":
      return `${provider} rejected the credentials (${detail}). Check them and save them again.`;
    case "rate_limited":
      return `${provider} is limiting requests (${detail}). Sunfleet will retry later.`;
    case "unavailable":
      return `${provider} is unavailable (${detail}). Sunfleet will retry.`;
    case "timeout":
      return `${provider} did not answer in time (${detail}). Sunfleet will retry.`;
    case "malformed":
      return `${provider} sent data Sunfleet could not read (${detail}). Sunfleet will retry.`;
    case "invalid_request":
      return `${provider} refused the request (${detail}).`;
    case "unreadable_credentials":
      return `${detail}. Save the ${provider} credentials again.`;
    default:
      return `Sync with ${provider} failed unexpectedly. Sunfleet will retry.`;
  }
}
