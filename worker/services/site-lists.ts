import type {
  AvailableSystemsQuery,
  SiteCountsAnswer,
  SiteFilter,
  SiteGroup,
  SiteGroupsQuery,
  SiteListQuery,
  SiteMap,
} from "../../schema/api/site-lists";
import type { AvailableSystem } from "../../schema/api/sites";
import { availableSystemsPage as availableSystemsRows } from "../data/available-systems";
import { toAvailableSystem } from "../domain/sites";
import type { EnhancedSiteListItem, SiteListItem, SitesPage } from "../fleet/types";
import { fleetStoreOf } from "../lib/fleet-store";
import type { JsonGzip } from "../lib/gzip";
import { pageCountOf } from "../lib/paged-answer";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";
import { withLive } from "./sites";

/*
 * The site lists a page at a time. Sites are searched, filtered and sorted by the organisation's
 * fleet store from its read model of sites (worker/fleet/read-models/sites.ts), so only a page
 * crosses to the worker; the free systems are paged by D1 and only the page's live values read.
 */

export async function listSitesPage(
  ctx: UserContext,
  query: SiteListQuery,
): Promise<SitesPage<SiteListItem>> {
  const org = authorizeOrgAction(ctx, "org:read");
  return fleetStoreOf(org).sitesPage(org.user.orgId, org.now, query, org.orgVersions);
}

export async function listEnhancedSitesPage(
  ctx: UserContext,
  query: SiteListQuery,
): Promise<SitesPage<EnhancedSiteListItem>> {
  const org = authorizeOrgAction(ctx, "org:read");
  return fleetStoreOf(org).enhancedSitesPage(org.user.orgId, org.now, query, org.orgVersions);
}

export async function countSites(ctx: UserContext, filter: SiteFilter): Promise<SiteCountsAnswer> {
  const org = authorizeOrgAction(ctx, "org:read");
  return fleetStoreOf(org).siteCounts(org.user.orgId, org.now, filter, org.orgVersions);
}

export async function groupSites(ctx: UserContext, query: SiteGroupsQuery): Promise<SiteGroup[]> {
  const org = authorizeOrgAction(ctx, "org:read");
  return fleetStoreOf(org).siteGroups(org.user.orgId, org.now, query, org.orgVersions);
}

export async function mapSites(ctx: UserContext, filter: SiteFilter): Promise<JsonGzip<SiteMap>> {
  const org = authorizeOrgAction(ctx, "org:read");
  return fleetStoreOf(org).siteMap(org.user.orgId, org.now, filter, org.orgVersions);
}

export async function listAvailableSystemsPage(
  ctx: UserContext,
  query: AvailableSystemsQuery,
): Promise<SitesPage<AvailableSystem>> {
  const org = authorizeOrgAction(ctx, "org:read");
  const { rows, total } = await availableSystemsRows(org.db, org.user.orgId, query);
  const items = (await withLive(org, Promise.resolve(rows))).map(toAvailableSystem);
  return { items, total, page: query.page, pageCount: pageCountOf(total, query.pageSize) };
}
