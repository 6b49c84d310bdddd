import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { SiteGroupKey } from "../../../schema/api/site-lists";
import { api, routeUrl } from "../api";
import type { SiteListSearch } from "../site-list-search";
import { getPage } from "./paged";
import { siteKeys } from "./sites";

/*
 * The site screens read the paged site lists: what they show (search, filters, order, page, view)
 * lives in the URL's search, so a view is shared as a link and survives a reload.
 */

/** The API's filter parameters for a search (the screens' default order is worst PR first). */
export function siteFilterQuery(search: SiteListSearch) {
  return {
    q: search.q || undefined,
    status: search.status?.length ? search.status.join(",") : undefined,
    provider: search.provider || undefined,
    portfolio: search.portfolio || undefined,
    country: search.country || undefined,
    label: search.label || undefined,
    alerts: search.alerts,
  };
}

const pageQuery = (search: SiteListSearch, pageSize: number) => ({
  ...siteFilterQuery(search),
  sort: search.sort ?? "pr",
  page: search.page ?? 1,
  pageSize,
});

/** A query as its URL's search, for the cache keys. */
const searchOf = (query: object) => routeUrl("", {}, query);

const filterKey = (search: SiteListSearch) => searchOf(siteFilterQuery(search));

export const siteListKeys = {
  all: [...siteKeys.all, "lists"] as const,
  page: (kind: string, params: string) => [...siteListKeys.all, kind, params] as const,
  counts: (filters: string) => [...siteListKeys.all, "counts", filters] as const,
  groups: (by: string, filters: string) => [...siteListKeys.all, "groups", by, filters] as const,
  map: (filters: string) => [...siteListKeys.all, "map", filters] as const,
};

/** Lists refresh every 30 s, as the dashboard's do. */
const REFRESH_MS = 30_000;

export const sitesPageQueryOptions = (search: SiteListSearch, pageSize = 48) => {
  const query = pageQuery(search, pageSize);
  return queryOptions({
    queryKey: siteListKeys.page("sites", searchOf(query)),
    queryFn: ({ signal }) => getPage("/sites", { query, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
};

export const enhancedSitesPageQueryOptions = (search: SiteListSearch, pageSize = 20) => {
  const query = pageQuery(search, pageSize);
  return queryOptions({
    queryKey: siteListKeys.page("enhanced", searchOf(query)),
    queryFn: ({ signal }) => getPage("/sites/enhanced", { query, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
};

/** A page of the systems on no site, searched by the server (name, vendor id). */
export const availableSystemsPageQueryOptions = (q: string | undefined, page: number, pageSize: number) => {
  const query = { q: q || undefined, page, pageSize };
  return queryOptions({
    queryKey: siteListKeys.page("available", searchOf(query)),
    queryFn: ({ signal }) => getPage("/available-systems", { query, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
};

export const siteCountsQueryOptions = (search: SiteListSearch) => {
  const filters = filterKey(search);
  return queryOptions({
    queryKey: siteListKeys.counts(filters),
    queryFn: ({ signal }) => api.get("/sites/counts", { query: siteFilterQuery(search), signal }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
    retry: false,
  });
};

export const siteGroupsQueryOptions = (search: SiteListSearch, by: SiteGroupKey) => {
  const filters = filterKey(search);
  return queryOptions({
    queryKey: siteListKeys.groups(by, filters),
    queryFn: ({ signal }) => api.get("/sites/groups", { query: { ...siteFilterQuery(search), by }, signal }),
    placeholderData: keepPreviousData,
  });
};

export const siteMapQueryOptions = (search: SiteListSearch) => {
  const filters = filterKey(search);
  return queryOptions({
    queryKey: siteListKeys.map(filters),
    queryFn: ({ signal }) => api.get("/sites/map", { query: siteFilterQuery(search), signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
};
