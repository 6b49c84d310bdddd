import type { SyncTrigger } from "../../schema/domain";
import type { ProviderConnectionRow } from "../../schema/tables";
import { connectionPlantPlaces } from "../data/monitoring";
import { isDaylight } from "../domain/fleet-rules";
import type { Db } from "../lib/db";
import type { ProviderErrorKind } from "../providers/errors";

/** Live power is polled every 5 minutes: the vendors refresh their data no faster. */
export const SYNC_INTERVAL_MS = 5 * 60 * 1000;

/**
 * The five minutes of due times a cron tick dispatches: from its own whole five minutes to the
 * next tick's. The windows of successive ticks tile the clock, whatever a tick's own delay.
 */
export function tickWindow(now: number) {
  const from = Math.floor(now / SYNC_INTERVAL_MS) * SYNC_INTERVAL_MS;
  return { from, to: from + SYNC_INTERVAL_MS };
}

/**
 * Starts are spread over the 50 s after they are due, by a hash of the connection id (the same
 * second every cycle), so D1 and the vendors do not get a whole fleet at once. A run's next cycle
 * counts from the minute it started, so the spread stays inside a tick-aligned due time's minute,
 * with 10 s left for delivery.
 */
export const START_SPREAD_SECONDS = 50;

/** How long a start message sent at `now` waits: until the connection is due, then its spread. */
export const startDelaySeconds = (connectionId: string, dueAt: number, now: number) =>
  Math.ceil(Math.max(0, dueAt - now) / 1000) + spreadSeconds(connectionId);

/** A connection's second within its minute: FNV-1a of its id, so its phase is the same each cycle. */
function spreadSeconds(connectionId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < connectionId.length; i++) {
    hash ^= connectionId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % START_SPREAD_SECONDS;
}
export const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** While every plant of a connection is in the dark, it is polled this often. */
export const NIGHT_SYNC_INTERVAL_MS = 30 * 60 * 1000;
/**
 * A run holds its connection this long past its last unit; each unit renews it. A run whose
 * units stopped (a killed invocation and a lost message) frees it by expiry, and maintenance
 * closes it as failed by then.
 */
export const SYNC_LEASE_MS = 15 * 60 * 1000;
/** A run with no unit committed for this long is sent its next unit again by maintenance. */
export const RESUME_STALLED_AFTER_MS = 7 * 60 * 1000;

/** A connection's plant and device lists are read again at least this often (new plants appear then). */
export const LISTS_REFRESH_MS = 24 * 60 * 60 * 1000;

/**
 * Whether a run reads the vendor's plant and device lists: a user's sync and a connection's first
 * run do, and a scheduled one once the last full read is a day old; the others read live values
 * of the stored plants only.
 */
export function runReadsLists(
  connection: Pick<ProviderConnectionRow, "listsReadAt">,
  trigger: SyncTrigger,
  now: number,
): boolean {
  if (trigger !== "cron") return true;
  return connection.listsReadAt === null || now - connection.listsReadAt >= LISTS_REFRESH_MS;
}

/** Room a cycle keeps beside its run for retries, history units and a user's sync (10 %). */
const CYCLE_HEADROOM = 1.1;

/**
 * The cycle of a connection whose run took `runMs`: the base interval (day or night) while the run
 * fits it, otherwise the run's time with some headroom, rounded up to whole 5-minute cron ticks.
 * A vendor limit that cannot carry an account in 5 minutes (SMA's 60 calls a minute for 500
 * plants) so gets the shortest cycle it can carry, measured from run start to run start.
 */
export function cadenceMs(baseMs: number, runMs: number): number {
  const needed = Math.ceil((runMs * CYCLE_HEADROOM) / SYNC_INTERVAL_MS) * SYNC_INTERVAL_MS;
  return Math.max(baseMs, needed);
}

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

/**
 * The wait before a connection's next sync: the 5-minute interval while the sun is up at any of
 * its plants (or could rise before the next one), the night interval while it is below the horizon
 * at all of them. Plants without coordinates count as daylit.
 */
export async function nextSyncDelayMs(
  db: Db,
  connection: ProviderConnectionRow,
  now: number,
): Promise<number> {
  const places = await connectionPlantPlaces(db, connection.id);
  const lit = places.some(
    (p) =>
      p.latitude === null ||
      p.longitude === null ||
      isDaylight(p.latitude, p.longitude, now) ||
      isDaylight(p.latitude, p.longitude, now + NIGHT_SYNC_INTERVAL_MS),
  );
  return places.length === 0 || lit ? SYNC_INTERVAL_MS : NIGHT_SYNC_INTERVAL_MS;
}
