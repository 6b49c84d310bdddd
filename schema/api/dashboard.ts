import { z } from "zod";
import { breakdownProviderIds } from "../provider-registry";
import { dashboardMetricSchema } from "./metrics";

/**
 * The provider breakdown covers the API providers (in their registrations' `breakdownPosition`);
 * meteronline (a CSV import) stays out of totals.
 */
export const summaryProviders = breakdownProviderIds;
export type SummaryProvider = (typeof summaryProviders)[number];

/** The fleet's totals over the systems that count (every provider but meteronline). */
export const fleetTotalsSchema = z.object({
  systemCount: z.number(),
  todayWh: z.number(),
  /** Current power; a stale system's last value is not its output now and counts 0. */
  powerW: z.number(),
  capacityKw: z.number(),
  /** Mean efficiency (%) of the systems with a known capacity, an outdated value as 0 (as in powerW); null without one. */
  meanEfficiencyPercent: z.number().nullable(),
  /** Today's actual over expected energy across systems with an expectation; null without one. */
  performanceRatio: z.number().nullable(),
  /** The newest data time among the systems, ISO (UTC); null before any data. */
  dataTime: z.string().nullable(),
});
export type FleetTotals = z.infer<typeof fleetTotalsSchema>;

export const providerTotalsSchema = z.object({
  provider: z.enum(summaryProviders),
  /** Distinct sites the provider's systems are attached to. */
  siteCount: z.number(),
  systemCount: z.number(),
  capacityKw: z.number(),
  /** Current power, stale systems counting 0. */
  powerW: z.number(),
});
export type ProviderTotals = z.infer<typeof providerTotalsSchema>;

/** The organisation's sites, and how many of them are active and live now. */
export const siteCountsSchema = z.object({
  count: z.number(),
  /**
   * Sites marked active with a system live now: online with fresh data, or in fault (a fault is
   * reported, so the site is reachable). Sites without systems are never live.
   */
  activeCount: z.number(),
});
export type SiteCounts = z.infer<typeof siteCountsSchema>;

/** GET /api/dashboard/summary: the fleet's totals, computed by the organisation's fleet store. */
export const dashboardSummarySchema = z.object({
  /** When the read model the figures come from was built, ISO (UTC). */
  generatedAt: z.string(),
  /** Every system of the organisation, the excluded ones included. */
  systemCount: z.number(),
  /** Systems left out of the totals (meteronline imports). */
  excludedSystemCount: z.number(),
  totals: fleetTotalsSchema,
  /** One entry per provider of the breakdown, in its order. */
  providers: z.array(providerTotalsSchema),
  sites: siteCountsSchema,
  /** The first system with coordinates (where the weather is read when no site exists yet). */
  weatherPlace: z.object({ latitude: z.number(), longitude: z.number(), name: z.string() }).nullable(),
});
export type DashboardSummary = z.infer<typeof dashboardSummarySchema>;

export const systemSortKeys = ["system", "provider", "power", "today", "status", "inverters", "pr"] as const;
export type SystemSortKey = (typeof systemSortKeys)[number];
export const sortDirections = ["asc", "desc"] as const;
export type SortDirection = (typeof sortDirections)[number];

/** The largest page the systems list answers. */
export const MAX_SYSTEMS_PAGE_SIZE = 200;

export const systemsPageQuerySchema = z.strictObject({
  /** 1-based. */
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_SYSTEMS_PAGE_SIZE).default(50),
  /** Finds a system by its name, its site's name or the vendor's id for it (case-insensitive). */
  q: z.string().trim().max(100).default(""),
  /** Only the systems attached to this site (Site Management's live rows). */
  siteId: z.string().min(1).max(100).optional(),
  /** Worst performance ratio first unless asked otherwise. */
  sort: z.enum(systemSortKeys).default("pr"),
  direction: z.enum(sortDirections).default("asc"),
});
export type SystemsPageQuery = z.infer<typeof systemsPageQuerySchema>;

/** GET /api/dashboard/systems: one page of the fleet's systems in a stable order. */
export const systemsPageSchema = z.object({
  items: z.array(dashboardMetricSchema),
  page: z.number(),
  pageSize: z.number(),
  /** Systems matching `q` and `siteId` (all of them without either). */
  total: z.number(),
});
export type SystemsPage = z.infer<typeof systemsPageSchema>;
