import type { FleetSeries, FleetSeriesQuery } from "../../schema/api/fleet-series";
import { badRequest } from "../lib/errors";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";
import { fleetStoreOf } from "./fleet-store";
import { isKnownTimezone } from "./timezones";

/** The dashboard's fleet series in the viewer's zone, answered by the organisation's fleet store. */
export async function fleetSeries(ctx: UserContext, query: FleetSeriesQuery): Promise<FleetSeries> {
  const org = authorizeOrgAction(ctx, "org:read");
  if (!isKnownTimezone(query.tz)) {
    const message = `Unknown time zone: ${query.tz}`;
    throw badRequest(message, [{ path: ["tz"], message }]);
  }
  return fleetStoreOf(org).fleetSeries(org.user.orgId, query.tz, org.now);
}
