import type { Env } from "../env";
import type { FleetStore } from "../fleet/store";

/**
 * The caller's organisation's fleet store. The object is named by the organisation id D1
 * resolved for the signed-in caller, never by one taken from a request.
 */
export function fleetStoreOf(org: { env: Env; user: { orgId: string } }): DurableObjectStub<FleetStore> {
  return fleetStoreFor(org.env, org.user.orgId);
}

/** For jobs without a caller (sync, maintenance): `orgId` must come from a D1 row (the connection's). */
export function fleetStoreFor(env: Env, orgId: string): DurableObjectStub<FleetStore> {
  return env.FLEET_STORE.get(env.FLEET_STORE.idFromName(orgId));
}
