import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type {
  EnhancedSiteListItem,
  SiteCountsAnswer,
  SiteGroup,
  SiteGroupKey,
  SiteListItem,
  SiteMap,
} from "../../../schema/api/site-lists";
import { api, type RequestOptions, respond } from "../api";
import type { SiteListSearch } from "../site-list-search";
import { siteKeys } from "./sites";

/*
 * The site screens read the paged site lists: what they show (search, filters, order, page, view)
 * lives in the URL's search, so a view is shared as a link and survives a reload.
 */

/** The API's filter parameters for a search (the screens' default order is worst PR first). */
export function siteFilterParams(search: SiteListSearch): URLSearchParams {
  const params = new URLSearchParams();
  if (search.q) params.set("q", search.q);
  if (search.status?.length) params.set("status", search.status.join(","));
  if (search.provider) params.set("provider", search.provider);
  if (search.portfolio) params.set("portfolio", search.portfolio);
  if (search.country) params.set("country", search.country);
  if (search.label) params.set("label", search.label);
  if (search.alerts) params.set("alerts", search.alerts);
  return params;
}

function pageParams(search: SiteListSearch, pageSize: number): URLSearchParams {
  const params = siteFilterParams(search);
  params.set("sort", search.sort ?? "pr");
  params.set("page", String(search.page ?? 1));
  params.set("pageSize", String(pageSize));
  return params;
}

const filterKey = (search: SiteListSearch) => siteFilterParams(search).toString();

export const siteListKeys = {
  all: [...siteKeys.all, "lists"] as const,
  page: (kind: string, params: string) => [...siteListKeys.all, kind, params] as const,
  counts: (filters: string) => [...siteListKeys.all, "counts", filters] as const,
  groups: (by: string, filters: string) => [...siteListKeys.all, "groups", by, filters] as const,
  map: (filters: string) => [...siteListKeys.all, "map", filters] as const,
};

/** One page of a paged list: its items, and how many over all pages (X-Total-Count, else the page's). */
export async function getPage<T>(path: string, options?: Omit<RequestOptions, "body">) {
  const response = await respond("GET", path, options);
  const text = await response.text();
  const items = (text ? JSON.parse(text) : []) as T[];
  const total = response.headers.get("X-Total-Count");
  return { items, total: total === null ? items.length : Number(total) };
}

/** Lists refresh every 30 s, as the dashboard's do. */
const REFRESH_MS = 30_000;

export const sitesPageQueryOptions = (search: SiteListSearch, pageSize = 48) => {
  const params = pageParams(search, pageSize).toString();
  return queryOptions({
    queryKey: siteListKeys.page("sites", params),
    queryFn: ({ signal }) => getPage<SiteListItem>(`/sites?${params}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
};

export const enhancedSitesPageQueryOptions = (search: SiteListSearch, pageSize = 20) => {
  const params = pageParams(search, pageSize).toString();
  return queryOptions({
    queryKey: siteListKeys.page("enhanced", params),
    queryFn: ({ signal }) => getPage<EnhancedSiteListItem>(`/sites/enhanced?${params}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
};

export const siteCountsQueryOptions = (search: SiteListSearch) => {
  const filters = filterKey(search);
  return queryOptions({
    queryKey: siteListKeys.counts(filters),
    queryFn: ({ signal }) => api.get<SiteCountsAnswer>(`/sites/counts?${filters}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
    retry: false,
  });
};

export const siteGroupsQueryOptions = (search: SiteListSearch, by: SiteGroupKey) => {
  const filters = filterKey(search);
  const params = new URLSearchParams(filters);
  params.set("by", by);
  return queryOptions({
    queryKey: siteListKeys.groups(by, filters),
    queryFn: ({ signal }) => api.get<SiteGroup[]>(`/sites/groups?${params.toString()}`, { signal }),
    placeholderData: keepPreviousData,
  });
};

export const siteMapQueryOptions = (search: SiteListSearch) => {
  const filters = filterKey(search);
  return queryOptions({
    queryKey: siteListKeys.map(filters),
    queryFn: ({ signal }) => api.get<SiteMap>(`/sites/map?${filters}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
};
