import type { AnalyticsQuery, AnalyticsRecord } from "../../schema/api/analytics";
import { notFound } from "../lib/errors";
import { fleetStoreOf } from "../lib/fleet-store";
import type { JsonText } from "../lib/gzip";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";

/** A page of the fleet's analytics records (`system=all`), from the store's metrics model. */
export async function analyticsPage(
  ctx: UserContext,
  query: AnalyticsQuery,
): Promise<{ items: AnalyticsRecord[]; page: number; pageCount: number; total: number }> {
  const org = authorizeOrgAction(ctx, "org:read");
  return fleetStoreOf(org).analyticsPage(org.user.orgId, org.now, query, org.orgVersions);
}

/**
 * One system's (or site's) analytics record, answered by the organisation's fleet store as JSON
 * text: real series over the range, power, and energy per plant-local day next to the energy
 * expected from measured irradiance.
 */
export async function systemAnalytics(
  ctx: UserContext,
  query: AnalyticsQuery,
): Promise<JsonText<AnalyticsRecord>> {
  const org = authorizeOrgAction(ctx, "org:read");
  const record = await fleetStoreOf(org).systemAnalytics(
    org.user.orgId,
    query.system,
    query.range,
    org.now,
    org.orgVersions,
  );
  if (!record) throw notFound("system", "System");
  return record;
}
