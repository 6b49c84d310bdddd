import { readFleetVersion } from "../data/data-versions";
import type { OrgContext } from "./context";

/**
 * Computed read models of an organisation's fleet (dashboard metrics, fleet series), kept per
 * isolate and reused while nothing they read has changed: dashboards poll, and every user of an
 * organisation sees the same fleet, so a 2,000-system fleet is read once per change, not per poll.
 *
 * An entry is current while the organisation's change counter (bumped by triggers on every write
 * to systems, inverters, sites and rollups, and on irradiance; migrations 0005-0006) is unchanged
 * and it is younger than MAX_AGE_MS, the bound on time-driven fields (stale flags, today's
 * window) lagging the clock.
 */
export const MAX_AGE_MS = 60_000;
/** Entries kept per isolate, least recently used evicted. */
const MAX_ENTRIES = 64;

interface Entry {
  version: string;
  builtAt: number;
  value: unknown;
}

const entries = new Map<string, Entry>();

const isCurrent = (entry: Entry, version: string, now: number) =>
  entry.version === version && now >= entry.builtAt && now - entry.builtAt < MAX_AGE_MS;

/** `name` tells apart the read models (and their parameters) of one organisation. */
export async function orgCached<T>(org: OrgContext, name: string, build: () => Promise<T>): Promise<T> {
  const key = `${org.user.orgId}|${name}`;
  // The version is read before the data: data newer than the version can only cause a rebuild.
  const version = await readFleetVersion(org.db, org.user.orgId);
  const cached = entries.get(key);
  entries.delete(key);
  if (cached && isCurrent(cached, version, org.now)) {
    entries.set(key, cached);
    return cached.value as T;
  }
  const value = await build();
  entries.set(key, { version, builtAt: org.now, value });
  for (const oldest of entries.keys()) {
    if (entries.size <= MAX_ENTRIES) break;
    entries.delete(oldest);
  }
  return value;
}
