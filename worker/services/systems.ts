import type { SystemDetail, UpdateSystemBody } from "../../schema/api/systems";
import { findSystem } from "../data/sites";
import { listOrientationInputs, updateSystemOrientation } from "../data/system-orientation";
import { effectiveOrientation } from "../domain/solar/orientation";
import { notFound } from "../lib/errors";
import { auditEntry } from "./audit";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";
import { actorOf } from "./sites";

/** Sets a system's tilt, azimuth and AC limit (null clears one); answers the system with its effective values. */
export async function updateSystem(
  ctx: UserContext,
  systemId: string,
  body: UpdateSystemBody,
): Promise<SystemDetail> {
  const org = authorizeOrgAction(ctx, "sites:manage");
  const orgId = org.user.orgId;
  if (!(await findSystem(org.db, orgId, systemId))) throw notFound("system", "System", { systemId });
  const values = {
    ...(body.tiltDeg !== undefined ? { tiltDeg: body.tiltDeg } : {}),
    ...(body.azimuthDeg !== undefined ? { azimuthDeg: body.azimuthDeg } : {}),
    ...(body.acLimitKw !== undefined ? { acLimitKw: body.acLimitKw } : {}),
  };
  const [updated] = await org.db.batch([
    updateSystemOrientation(org.db, orgId, systemId, values, org.now),
    auditEntry(org, {
      ...actorOf(org),
      action: "system.update",
      targetType: "system",
      targetId: systemId,
      details: values,
    }),
  ]);
  const [system, inputs] = await Promise.all([
    findSystem(org.db, orgId, systemId),
    listOrientationInputs(org.db, orgId, systemId),
  ]);
  const input = inputs[0]?.input;
  // Removed between the check and the write (its connection deleted): nothing was changed.
  if (!system || !input || updated.meta.changes === 0) throw notFound("system", "System", { systemId });
  return {
    id: system.id,
    name: system.name,
    provider: system.provider,
    providerId: system.providerSystemId,
    siteId: system.siteId,
    capacity: system.capacityW === null ? null : system.capacityW / 1000,
    latitude: system.latitude,
    longitude: system.longitude,
    state: system.state,
    orientation: effectiveOrientation(input),
  };
}
