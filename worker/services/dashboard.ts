import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";
import { fleetStoreOf } from "./fleet-store";

/** The last answer per organisation this isolate received, so an unchanged answer is not copied again. */
const heldAnswers = new Map<string, { key: string; json: string }>();
const HELD_ORGANISATIONS = 16;

/**
 * The dashboard's entries, one per system, as serialised JSON. The fleet store keeps the answer
 * per change; this isolate keeps the last copy it received and asks the store only whether it
 * is still current, so a large fleet's answer crosses from the store once per change.
 */
export async function dashboardMetricsJson(ctx: UserContext): Promise<string> {
  const org = authorizeOrgAction(ctx, "org:read");
  const orgId = org.user.orgId;
  const held = heldAnswers.get(orgId);
  const answer = await fleetStoreOf(org).metricsAnswer(orgId, org.now, held?.key ?? null);
  heldAnswers.delete(orgId);
  const json = answer.json ?? held?.json ?? "[]";
  heldAnswers.set(orgId, { key: answer.key, json });
  for (const oldest of heldAnswers.keys()) {
    if (heldAnswers.size <= HELD_ORGANISATIONS) break;
    heldAnswers.delete(oldest);
  }
  return json;
}

/** SPEC's fallback totals, for the client when the metrics call fails. Meteronline is excluded. */
export async function dashboardFallback(ctx: UserContext) {
  const org = authorizeOrgAction(ctx, "org:read");
  return fleetStoreOf(org).fallbackTotals(org.user.orgId, org.now);
}
