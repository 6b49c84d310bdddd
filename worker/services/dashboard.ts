import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";
import { fleetStoreOf } from "./fleet-store";

/** The dashboard's entries, one per system, as serialised JSON (kept by the fleet store per change). */
export async function dashboardMetricsJson(ctx: UserContext): Promise<string> {
  const org = authorizeOrgAction(ctx, "org:read");
  return fleetStoreOf(org).metricsJson(org.user.orgId, org.now);
}

/** SPEC's fallback totals, for the client when the metrics call fails. Meteronline is excluded. */
export async function dashboardFallback(ctx: UserContext) {
  const org = authorizeOrgAction(ctx, "org:read");
  return fleetStoreOf(org).fallbackTotals(org.user.orgId, org.now);
}
