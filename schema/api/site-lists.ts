import { z } from "zod";
import { type ProviderId, providerIds } from "./providers";
import { enhancedSiteSchema, type SiteStatus, siteSchema, siteStatuses } from "./sites";

/*
 * The site lists a page at a time: GET /api/sites, /api/sites/enhanced and what the screens read
 * beside them (counts per status and facet, groups, map points), searched, filtered and sorted by
 * the organisation's fleet store.
 */

/**
 * Sites per page unless `pageSize` says otherwise: an unpaged call (the client's) gets the first 1,000
 * in name order, as before for a fleet of that size, with `Link` and `X-Total-Count` naming the
 * pages beyond.
 */
export const SITES_PAGE_SIZE = 1_000;
/** The largest page any of these lists answers. */
export const MAX_SITES_PAGE_SIZE = 1_000;

/** What a site list sorts by; each key's default direction is worst first. */
export const siteSortKeys = ["name", "pr", "power", "today", "alerts", "capacity"] as const;
export type SiteSortKey = (typeof siteSortKeys)[number];

/** Worst first: lowest PR, power and energy, most open alerts; names A to Z. */
export const worstFirst: Record<SiteSortKey, "asc" | "desc"> = {
  name: "asc",
  pr: "asc",
  power: "asc",
  today: "asc",
  alerts: "desc",
  capacity: "desc",
};

/** A comma-separated list (`status=fault,offline`) of allowed values; blank means none. */
const listOf = <T extends string>(values: readonly [T, ...T[]], label: string) =>
  z
    .string()
    .max(500)
    .transform((text, ctx) => {
      const items = [
        ...new Set(
          text
            .split(",")
            .map((item) => item.trim())
            .filter(Boolean),
        ),
      ];
      const unknown = items.filter((item) => !(values as readonly string[]).includes(item));
      if (unknown.length > 0) {
        ctx.addIssue({ code: "custom", message: `Unknown ${label}: ${unknown.join(", ")}` });
        return z.NEVER;
      }
      return items as T[];
    });

const filterText = z.string().trim().max(120);

/** Filters every site list, count, group and map takes (all optional; given together, all must hold). */
export const siteFilterSchema = z.strictObject({
  /** Finds a site by its name, address, formatted address or a system's name or vendor id (case-insensitive). */
  q: z.string().trim().max(100).default(""),
  status: listOf(siteStatuses, "status").optional(),
  /** Sites with a system of one of these providers (or created for one, while without systems). */
  provider: listOf(providerIds as unknown as readonly [ProviderId, ...ProviderId[]], "provider").optional(),
  /** A portfolio's id: the sites it holds. */
  portfolio: z.string().trim().min(1).max(64).optional(),
  /** The site's country as stored (case-insensitive); `-` for sites without one. */
  country: filterText.optional(),
  /** The site's free label (client, installer, region…), case-insensitive; `-` for sites without one. */
  label: filterText.optional(),
  /** `open`: sites with an open alert; `none`: without. */
  alerts: z.enum(["open", "none"]).optional(),
});
export type SiteFilter = z.infer<typeof siteFilterSchema>;

export const siteListQuerySchema = siteFilterSchema.extend({
  /** 1-based; a page past the last is an empty list. */
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_SITES_PAGE_SIZE).default(SITES_PAGE_SIZE),
  /** Without it, name order as stored; each key sorts worst first unless `direction` says. */
  sort: z.enum(siteSortKeys).optional(),
  direction: z.enum(["asc", "desc"]).optional(),
});
export type SiteListQuery = z.infer<typeof siteListQuerySchema>;
export type SiteListInput = z.input<typeof siteListQuerySchema>;

/** What a list adds to each site: how it performs against the weather, its open alerts and portfolios. */
const listFigures = {
  /** Today's energy over what the irradiance at the site let its systems expect; null without an expectation. */
  performanceRatio: z.number().nullable(),
  /** Open alerts of the site's systems. */
  openAlerts: z.number(),
  /** The portfolios holding the site. */
  portfolioIds: z.array(z.string()),
};
export const siteListItemSchema = siteSchema.extend(listFigures);
export type SiteListItem = z.infer<typeof siteListItemSchema>;
export const enhancedSiteListItemSchema = enhancedSiteSchema.extend(listFigures);
export type EnhancedSiteListItem = z.infer<typeof enhancedSiteListItemSchema>;

const statusCountsSchema = z.object({ online: z.number(), offline: z.number(), fault: z.number() });
export type StatusCounts = z.infer<typeof statusCountsSchema>;

const facetSchema = z.object({
  /** The value to filter by (`-` for none); a portfolio's id. */
  value: z.string(),
  /** What to show: the value itself, or a portfolio's name; null for none. */
  name: z.string().nullable(),
  count: z.number(),
});
export type SiteFacet = z.infer<typeof facetSchema>;

/**
 * GET /api/sites/counts: how many sites match, per status, and the values each filter offers
 * with their counts. Each count applies every filter but its own, so a screen shows what
 * choosing another value would give.
 */
export const siteCountsAnswerSchema = z.object({
  total: z.number(),
  byStatus: statusCountsSchema,
  /** Matching sites with an open alert. */
  withOpenAlerts: z.number(),
  /** The matching sites' systems and capacity (kW DC). */
  systemCount: z.number(),
  capacityKw: z.number(),
  providers: z.array(facetSchema),
  countries: z.array(facetSchema),
  portfolios: z.array(facetSchema),
  labels: z.array(facetSchema),
});
export type SiteCountsAnswer = z.infer<typeof siteCountsAnswerSchema>;

export const siteGroupKeys = ["portfolio", "country", "label", "provider"] as const;
export type SiteGroupKey = (typeof siteGroupKeys)[number];

export const siteGroupsQuerySchema = siteFilterSchema.extend({ by: z.enum(siteGroupKeys) });
export type SiteGroupsQuery = z.infer<typeof siteGroupsQuerySchema>;

/** One group of sites with its totals (a site in two portfolios counts in both). */
export const siteGroupSchema = z.object({
  /** The filter value for the group's sites (`-` for sites without one). */
  value: z.string(),
  /** The group's name; null for the sites without one. */
  name: z.string().nullable(),
  siteCount: z.number(),
  byStatus: statusCountsSchema,
  /** kW DC. */
  capacityKw: z.number(),
  /** W, fresh data only. */
  powerW: z.number(),
  todayWh: z.number(),
  /** Today's energy over its irradiance-based expectation, over sites with one; null without. */
  performanceRatio: z.number().nullable(),
  openAlerts: z.number(),
});
export type SiteGroup = z.infer<typeof siteGroupSchema>;

/** GET /api/sites/map: every matching site with coordinates, as columns (a 20,000-site fleet is ~1 MB). */
export const siteMapSchema = z.object({
  total: z.number(),
  ids: z.array(z.string()),
  /** Degrees, 4 decimals (~11 m). */
  latitudes: z.array(z.number()),
  longitudes: z.array(z.number()),
  statuses: z.array(z.enum(siteStatuses)),
});
export type SiteMap = z.infer<typeof siteMapSchema>;

/** What filters and sorts a list or group reads from the URL, shown and shared as such. */
export type SiteStatusFilter = SiteStatus;

/**
 * GET /api/available-systems: the systems attached to no site, a page at a time in name order
 * (1,000 unless `pageSize` says otherwise, as the client's unpaged call reads them), searched by name,
 * address or vendor id and filtered by provider.
 */
export const availableSystemsQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_SITES_PAGE_SIZE).default(SITES_PAGE_SIZE),
  q: z.string().trim().max(100).default(""),
  provider: listOf(providerIds as unknown as readonly [ProviderId, ...ProviderId[]], "provider").optional(),
});
export type AvailableSystemsQuery = z.infer<typeof availableSystemsQuerySchema>;
