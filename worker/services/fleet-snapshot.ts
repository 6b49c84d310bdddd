import { readFleetVersion } from "../data/data-versions";
import type { OrgContext } from "./context";
import { computeFleetMetrics, type FleetMetric } from "./metrics";

/**
 * The organisation's fleet metrics, computed once and reused while nothing they read has
 * changed: dashboards poll every 30 s and every user of an organisation sees the same fleet, so
 * a 2,000-system fleet is read from D1 once per change instead of once per poll.
 *
 * A snapshot is current while the organisation's change counter (bumped by triggers on every
 * write to systems, inverters and sites, and on irradiance) is unchanged and it is younger than
 * MAX_AGE_MS — the bound on time-driven fields (stale flags, today's window) lagging the clock.
 */
export const SNAPSHOT_MAX_AGE_MS = 60_000;
/** Snapshots kept per isolate (one per organisation, least recently used evicted). */
const MAX_SNAPSHOTS = 32;

export interface FleetSnapshot {
  version: string;
  builtAt: number;
  metrics: FleetMetric[];
  /** The dashboard metrics answer, serialised once. */
  json: string;
}

const snapshots = new Map<string, FleetSnapshot>();

const isCurrent = (snapshot: FleetSnapshot, version: string, now: number) =>
  snapshot.version === version && now >= snapshot.builtAt && now - snapshot.builtAt < SNAPSHOT_MAX_AGE_MS;

export async function fleetSnapshot(org: OrgContext): Promise<FleetSnapshot> {
  const orgId = org.user.orgId;
  // The version is read before the rows: data newer than the version can only cause a rebuild.
  const version = await readFleetVersion(org.db, orgId);
  const cached = snapshots.get(orgId);
  if (cached && isCurrent(cached, version, org.now)) {
    snapshots.delete(orgId);
    snapshots.set(orgId, cached);
    return cached;
  }
  const metrics = await computeFleetMetrics(org);
  const snapshot = {
    version,
    builtAt: org.now,
    metrics,
    json: JSON.stringify(metrics.map((m) => m.metric)),
  };
  snapshots.delete(orgId);
  snapshots.set(orgId, snapshot);
  for (const oldest of snapshots.keys()) {
    if (snapshots.size <= MAX_SNAPSHOTS) break;
    snapshots.delete(oldest);
  }
  return snapshot;
}
