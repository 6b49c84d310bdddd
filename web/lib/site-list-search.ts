import type { SiteGroupKey, SiteSortKey } from "../../schema/api/site-lists";

/*
 * What the site screens show (search, filters, order, page, view) as the URL's search: a view is
 * shared as a link and survives a reload. Kept apart from the queries: the routes read it before
 * their screens load.
 */

export const SITE_STATUSES = ["fault", "offline", "online"] as const;
export type SiteStatusValue = (typeof SITE_STATUSES)[number];
export const SITE_SORTS = [
  "pr",
  "power",
  "today",
  "alerts",
  "name",
] as const satisfies readonly SiteSortKey[];
export const SITE_VIEWS = ["list", "groups", "map"] as const;
export const SITE_GROUPS = ["portfolio", "country", "label"] as const satisfies readonly SiteGroupKey[];

/** The site screens' URL search: every field optional, defaults left out of the URL. */
export interface SiteListSearch {
  q?: string;
  status?: SiteStatusValue[];
  provider?: string;
  portfolio?: string;
  country?: string;
  label?: string;
  alerts?: "open" | "none";
  /** Worst PR first unless chosen otherwise. */
  sort?: (typeof SITE_SORTS)[number];
  page?: number;
  view?: (typeof SITE_VIEWS)[number];
  group?: (typeof SITE_GROUPS)[number];
}

const text = (value: unknown, max = 120) =>
  typeof value === "string" && value.trim() ? value.trim().slice(0, max) : undefined;
const oneOf = <T extends string>(values: readonly T[], value: unknown): T | undefined =>
  typeof value === "string" && (values as readonly string[]).includes(value) ? (value as T) : undefined;

/** Reads the URL's search into a SiteListSearch: unknown keys and values are dropped. */
export function validateSiteListSearch(search: Record<string, unknown>): SiteListSearch {
  const statuses = (Array.isArray(search.status) ? search.status : String(search.status ?? "").split(","))
    .map((value) => oneOf(SITE_STATUSES, value))
    .filter((value): value is SiteStatusValue => value !== undefined);
  const page = Number(search.page);
  const found: SiteListSearch = {
    q: text(search.q, 100),
    status: statuses.length > 0 ? [...new Set(statuses)] : undefined,
    provider: text(search.provider, 40),
    portfolio: text(search.portfolio, 64),
    country: text(search.country),
    label: text(search.label),
    alerts: oneOf(["open", "none"] as const, search.alerts),
    sort: oneOf(SITE_SORTS, search.sort),
    page: Number.isInteger(page) && page > 1 ? Math.min(page, 1_000_000) : undefined,
    view: oneOf(SITE_VIEWS, search.view),
    group: oneOf(SITE_GROUPS, search.group),
  };
  return Object.fromEntries(
    Object.entries(found).filter(([, value]) => value !== undefined),
  ) as SiteListSearch;
}
