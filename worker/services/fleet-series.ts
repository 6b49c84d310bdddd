import type { FleetSeries, FleetSeriesQuery } from "../../schema/api/fleet-series";
import { isKnownTimezone } from "../domain/timezones";
import { invalidField } from "../lib/errors";
import { fleetStoreOf } from "../lib/fleet-store";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";

/** The dashboard's fleet series in the viewer's zone, answered by the organisation's fleet store. */
export async function fleetSeries(ctx: UserContext, query: FleetSeriesQuery): Promise<FleetSeries> {
  const org = authorizeOrgAction(ctx, "org:read");
  if (!isKnownTimezone(query.tz)) {
    throw invalidField("tz", `Unknown time zone: ${query.tz}`);
  }
  return fleetStoreOf(org).fleetSeries(org.user.orgId, query.tz, org.now, org.orgVersions);
}
