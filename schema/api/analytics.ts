import { z } from "zod";
import { exportFormatSchema } from "./exports";
import { providerIdSchema } from "./providers";

export const analyticsRanges = ["24h", "7d", "30d", "1y"] as const;
export type AnalyticsRange = (typeof analyticsRanges)[number];

/**
 * Records per page of `system=all` unless `pageSize` says otherwise: an unpaged call (the client's) gets
 * the first 1,000 in the list's order (by site, then name), as before for a fleet of that size,
 * with `Link` and `X-Total-Count` naming the pages beyond.
 */
export const ANALYTICS_PAGE_SIZE = 1_000;

export const analyticsSortKeys = [
  "system",
  "provider",
  "power",
  "today",
  "status",
  "inverters",
  "pr",
] as const;

export const analyticsQuerySchema = z.strictObject({
  system: z.string().min(1).max(64).default("all"),
  range: z.enum(analyticsRanges).default("24h"),
  format: exportFormatSchema,
  /** Which series a CSV export holds: power readings or daily energy. */
  series: z.enum(["power", "energy"]).default("power"),
  /** `system=all` only: 1-based; a page past the last is an empty list. */
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(ANALYTICS_PAGE_SIZE).default(ANALYTICS_PAGE_SIZE),
  /** Finds a system by its name, its site's name or the vendor's id for it (case-insensitive). */
  q: z.string().trim().max(100).default(""),
  provider: providerIdSchema.optional(),
  status: z.enum(["online", "offline", "fault", "stale"]).optional(),
  /** The systems of one site. */
  siteId: z.string().min(1).max(64).optional(),
  /** Without it, the list's order (by site, then name); `pr` sorts worst first. */
  sort: z.enum(analyticsSortKeys).optional(),
  direction: z.enum(["asc", "desc"]).default("asc"),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

export const analyticsRecordSchema = z.object({
  provider: providerIdSchema,
  stationName: z.string(),
  systemName: z.string(),
  siteName: z.string().nullable(),
  systemId: z.string(),
  siteId: z.string().nullable(),
  id: z.string(),
  providerId: z.string(),
  currentPowerW: z.number(),
  todayGenerationWh: z.number(),
  /** kW */
  capacity: z.number(),
  efficiency: z.number(),
  performanceRatio: z.number().nullable(),
  state: z.number(),
  status: z.string(),
  inverterCount: z.number(),
  inverterStates: z.array(
    z.object({
      sn: z.string().nullable(),
      state: z.number(),
      pac: z.number(),
      etodayKWh: z.number(),
      inverterTemperature: z.number().nullable(),
    }),
  ),
  location: z.object({
    address: z.string().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
  }),
  timezone: z.string(),
  lastUpdated: z.string().nullable(),
  error: z.string().nullable(),
  /** Present when one system is asked for. */
  series: z
    .object({
      range: z.enum(analyticsRanges),
      /** Power over the range: 5-minute readings (24h, 7d), hourly means (30d), daily peaks (1y). */
      power: z.array(z.object({ time: z.string(), powerW: z.number().nullable() })),
      /** Energy per plant-local day with the irradiance-based expectation. */
      energy: z.array(
        z.object({
          date: z.string(),
          energyWh: z.number().nullable(),
          expectedWh: z.number().nullable(),
          performanceRatio: z.number().nullable(),
        }),
      ),
    })
    .optional(),
});
export type AnalyticsRecord = z.infer<typeof analyticsRecordSchema>;
