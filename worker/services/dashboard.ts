import type { DashboardSummary, SystemsPage, SystemsPageQuery } from "../../schema/api/dashboard";
import { siteRoster } from "../data/sites";
import { fleetStoreOf } from "../lib/fleet-store";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";

/** The last page of each organisation's answer this isolate received (gzipped), so an unchanged page is not copied again. */
const heldPages = new Map<string, { key: string; gzip: Uint8Array }>();
/** Bounds what the isolate holds: a page of 1,000 systems is ~50 KB gzipped. */
const HELD_BYTES = 32 * 2 ** 20;

/** A page of the dashboard metrics answer: its entity tag and paging, and its gzipped JSON unless the caller holds that tag. */
export interface MetricsPage {
  tag: string;
  page: number;
  pageCount: number;
  total: number;
  gzip: Uint8Array | null;
}

/**
 * A page of the dashboard's entries, one per system, as gzipped JSON. The fleet store keeps each
 * page per change, compressed once; this isolate keeps the last copy it received and asks the
 * store only whether it is still current, so a page crosses from the store once per change and is
 * served as it is held. A client that names the current tag (If-None-Match) gets no body.
 */
export async function dashboardMetricsPage(
  ctx: UserContext,
  page: number,
  clientTags: string[] = [],
): Promise<MetricsPage> {
  const org = authorizeOrgAction(ctx, "org:read");
  const holdKey = `${org.user.orgId}|${page}`;
  const held = heldPages.get(holdKey);
  const answer = await fleetStoreOf(org).metricsAnswer(
    org.user.orgId,
    org.now,
    page,
    held?.key ?? clientTags[0] ?? null,
    org.orgVersions,
  );
  const gzip = answer.gzip ?? (held?.key === answer.key ? held.gzip : null);
  if (gzip) hold(holdKey, answer.key, gzip);
  const paging = { tag: answer.key, page, pageCount: answer.pageCount, total: answer.total };
  if (clientTags.includes(answer.key)) return { ...paging, gzip: null };
  if (!gzip) throw new Error("the fleet store answered no metrics for an unknown key");
  return { ...paging, gzip };
}

function hold(holdKey: string, key: string, gzip: Uint8Array) {
  // Re-inserted so the map's order is least recently used first.
  heldPages.delete(holdKey);
  heldPages.set(holdKey, { key, gzip });
  let heldBytes = 0;
  for (const entry of heldPages.values()) heldBytes += entry.gzip.byteLength;
  for (const [oldest, entry] of heldPages) {
    if (heldBytes <= HELD_BYTES || oldest === holdKey) break;
    heldBytes -= entry.gzip.byteLength;
    heldPages.delete(oldest);
  }
}

/** Every system's entry, unpaged, for the CSV export. */
export async function dashboardMetricsJson(ctx: UserContext): Promise<string> {
  const org = authorizeOrgAction(ctx, "org:read");
  return fleetStoreOf(org).metricsJson(org.user.orgId, org.now, org.orgVersions);
}

/** The fallback totals, for the client when the metrics call fails (docs/product.md). Meteronline is excluded. */
export async function dashboardFallback(ctx: UserContext) {
  const org = authorizeOrgAction(ctx, "org:read");
  return fleetStoreOf(org).fallbackTotals(org.user.orgId, org.now, org.orgVersions);
}

/** The fleet's totals and per-provider totals, as the organisation's fleet store computes them. */
export async function dashboardSummary(ctx: UserContext): Promise<DashboardSummary> {
  const org = authorizeOrgAction(ctx, "org:read");
  const roster = await siteRoster(org.db, org.user.orgId);
  return fleetStoreOf(org).dashboardSummary(org.user.orgId, org.now, roster, org.orgVersions);
}

/** One page of the organisation's systems, searched and sorted by the fleet store. */
export async function dashboardSystemsPage(ctx: UserContext, query: SystemsPageQuery): Promise<SystemsPage> {
  const org = authorizeOrgAction(ctx, "org:read");
  return fleetStoreOf(org).systemsPage(org.user.orgId, org.now, query, org.orgVersions);
}
