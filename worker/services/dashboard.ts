import type { DashboardSummary, SystemsPage, SystemsPageQuery } from "../../schema/api/dashboard";
import { siteRoster } from "../data/sites";
import { gunzipText } from "../lib/gzip";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";
import { fleetStoreOf } from "./fleet-store";

/** The last answer per organisation this isolate received (gzipped), so an unchanged answer is not copied again. */
const heldAnswers = new Map<string, { key: string; gzip: Uint8Array }>();
/** Bounds what the isolate holds: a 20,000-system answer is under 1 MB gzipped. */
const HELD_BYTES = 32 * 2 ** 20;

/** The dashboard metrics answer: its entity tag, and its gzipped JSON unless the caller holds that tag. */
export type MetricsAnswer = { tag: string; gzip: Uint8Array } | { tag: string; gzip: null };

/**
 * The dashboard's entries, one per system, as gzipped JSON. The fleet store keeps the answer per
 * change, compressed once; this isolate keeps the last copy it received and asks the store only
 * whether it is still current, so a large fleet's answer crosses from the store once per change
 * and is served as it is held. A client that names the current tag (If-None-Match) gets no body.
 */
export async function dashboardMetricsGzip(
  ctx: UserContext,
  clientTags: string[] = [],
): Promise<MetricsAnswer> {
  const org = authorizeOrgAction(ctx, "org:read");
  const orgId = org.user.orgId;
  const held = heldAnswers.get(orgId);
  const answer = await fleetStoreOf(org).metricsAnswer(orgId, org.now, held?.key ?? clientTags[0] ?? null);
  const gzip = answer.gzip ?? (held?.key === answer.key ? held.gzip : null);
  if (gzip) hold(orgId, answer.key, gzip);
  if (clientTags.includes(answer.key)) return { tag: answer.key, gzip: null };
  if (!gzip) throw new Error("the fleet store answered no metrics for an unknown key");
  return { tag: answer.key, gzip };
}

function hold(orgId: string, key: string, gzip: Uint8Array) {
  // Re-inserted so the map's order is least recently used first.
  heldAnswers.delete(orgId);
  heldAnswers.set(orgId, { key, gzip });
  let heldBytes = 0;
  for (const entry of heldAnswers.values()) heldBytes += entry.gzip.byteLength;
  for (const [oldest, entry] of heldAnswers) {
    if (heldBytes <= HELD_BYTES || oldest === orgId) break;
    heldBytes -= entry.gzip.byteLength;
    heldAnswers.delete(oldest);
  }
}

/** The same answer as text, for the CSV export. */
export async function dashboardMetricsJson(ctx: UserContext): Promise<string> {
  const answer = await dashboardMetricsGzip(ctx);
  if (!answer.gzip) throw new Error("a metrics answer without a client tag always carries its body");
  return gunzipText(answer.gzip);
}

/** SPEC's fallback totals, for the client when the metrics call fails. Meteronline is excluded. */
export async function dashboardFallback(ctx: UserContext) {
  const org = authorizeOrgAction(ctx, "org:read");
  return fleetStoreOf(org).fallbackTotals(org.user.orgId, org.now);
}

/** The fleet's totals and per-provider totals, as the organisation's fleet store computes them. */
export async function dashboardSummary(ctx: UserContext): Promise<DashboardSummary> {
  const org = authorizeOrgAction(ctx, "org:read");
  const roster = await siteRoster(org.db, org.user.orgId);
  return fleetStoreOf(org).dashboardSummary(org.user.orgId, org.now, roster);
}

/** One page of the organisation's systems, searched and sorted by the fleet store. */
export async function dashboardSystemsPage(ctx: UserContext, query: SystemsPageQuery): Promise<SystemsPage> {
  const org = authorizeOrgAction(ctx, "org:read");
  return fleetStoreOf(org).systemsPage(org.user.orgId, org.now, query);
}
