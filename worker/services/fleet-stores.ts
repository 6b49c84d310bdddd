import { FLEET_STORE_WARNING_SHARE, type FleetStoreSizes } from "../../schema/api/fleet-stores";
import { listStoreSizes } from "../data/fleet-store-sizes";
import { requireAction } from "./authorization";
import type { UserContext } from "./context";

/**
 * Every fleet store (an organisation's own object and each of its shards) as it last reported its
 * size, largest first (the platform superAdmin's).
 */
export async function listFleetStoreSizes(ctx: UserContext): Promise<FleetStoreSizes> {
  requireAction(ctx, "platform:read");
  const rows = await listStoreSizes(ctx.db);
  return {
    threshold: FLEET_STORE_WARNING_SHARE,
    stores: rows.map((row) => ({
      orgId: row.orgId,
      shard: row.shard,
      organizationName: row.organizationName,
      bytes: row.bytes,
      boundBytes: row.boundBytes,
      share: row.boundBytes > 0 ? row.bytes / row.boundBytes : 0,
      nearBound: row.overSince !== null,
      reportedAt: new Date(row.reportedAt).toISOString(),
      overSince: row.overSince === null ? null : new Date(row.overSince).toISOString(),
    })),
  };
}
