import type { DashboardMetric } from "../../schema/api/metrics";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";
import { fleetSnapshot } from "./fleet-snapshot";

/** The dashboard's entries, one per system, as serialised JSON (from the fleet snapshot). */
export async function dashboardMetricsJson(ctx: UserContext): Promise<string> {
  return (await fleetSnapshot(authorizeOrgAction(ctx, "org:read"))).json;
}

export async function dashboardMetrics(ctx: UserContext): Promise<DashboardMetric[]> {
  return (await fleetSnapshot(authorizeOrgAction(ctx, "org:read"))).metrics.map((m) => m.metric);
}

/** SPEC's fallback totals, for the client when the metrics call fails. Meteronline is excluded. */
export async function dashboardFallback(ctx: UserContext) {
  const metrics = (await dashboardMetrics(ctx)).filter((m) => m.provider !== "meteronline");
  return {
    matchedSites: new Set(metrics.map((m) => m.siteId ?? m.systemId)).size,
    totalCurrentPower: metrics.reduce((sum, m) => sum + (m.stale ? 0 : m.currentPowerW), 0),
    totalTodayGeneration: Math.round(metrics.reduce((sum, m) => sum + m.todayGenerationWh, 0)) / 1000,
  };
}
