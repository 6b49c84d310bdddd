import type { OrgContext } from "./context";
import { computeFleetMetrics, type FleetMetric } from "./metrics";
import { orgCached } from "./org-read-cache";

export interface FleetSnapshot {
  metrics: FleetMetric[];
  /** The dashboard metrics answer, serialised once (~1.5 MB for 2,000 systems). */
  json: string;
}

/** The organisation's metrics for every system, computed once per change (see org-read-cache). */
export function fleetSnapshot(org: OrgContext): Promise<FleetSnapshot> {
  return orgCached(org, "metrics", async () => {
    const metrics = await computeFleetMetrics(org);
    return { metrics, json: JSON.stringify(metrics.map((m) => m.metric)) };
  });
}
