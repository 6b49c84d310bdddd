import type { FleetSeries, FleetSeriesQuery } from "../../schema/api/fleet-series";
import { invalidField } from "../lib/errors";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";
import { fleetStoreOf } from "./fleet-store";
import { isKnownTimezone } from "./timezones";

/** The dashboard's fleet series in the viewer's zone, answered by the organisation's fleet store. */
export async function fleetSeries(ctx: UserContext, query: FleetSeriesQuery): Promise<FleetSeries> {
  const org = authorizeOrgAction(ctx, "org:read");
  if (!isKnownTimezone(query.tz)) {
    throw invalidField("tz", `Unknown time zone: ${query.tz}`);
  }
  return fleetStoreOf(org).fleetSeries(org.user.orgId, query.tz, org.now);
}
