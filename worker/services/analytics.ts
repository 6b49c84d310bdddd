import type { AnalyticsQuery, AnalyticsRecord } from "../../schema/api/analytics";
import { notFound } from "../lib/errors";
import { fleetStoreOf } from "../lib/fleet-store";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";

/**
 * The analytics records, answered by the organisation's fleet store. For one system the record
 * carries real series over the range: power, and energy per plant-local day next to the energy
 * expected from measured irradiance.
 */
export async function analytics(
  ctx: UserContext,
  query: AnalyticsQuery,
): Promise<{ items: AnalyticsRecord[]; page: number; pageCount: number; total: number }> {
  const org = authorizeOrgAction(ctx, "org:read");
  const store = fleetStoreOf(org);
  if (query.system === "all") return store.analyticsPage(org.user.orgId, org.now, query);
  const record = await store.systemAnalytics(org.user.orgId, query.system, query.range, org.now);
  if (!record) throw notFound("system", "System");
  return { items: [record], page: 1, pageCount: 1, total: 1 };
}
