import { z } from "zod";
import { providerIdSchema } from "./providers";

export const fleetSeriesQuerySchema = z.strictObject({
  /** The viewer's IANA zone: "today" on the chart starts at its midnight. Checked in the service. */
  tz: z.string().min(1).max(64).default("UTC"),
});
export type FleetSeriesQuery = z.infer<typeof fleetSeriesQuerySchema>;

/** One UTC hour of the chart: mean power (W) per provider, summed over that provider's systems. */
export const providerHourSchema = z.object({
  /** Start of the hour, ISO (UTC). */
  time: z.string(),
  /** A provider is absent when none of its systems reported in the hour. */
  values: z.partialRecord(providerIdSchema, z.number()),
});
export type ProviderHour = z.infer<typeof providerHourSchema>;

/**
 * GET /api/dashboard/series: the whole fleet (meteronline excluded) in one answer, for the
 * dashboard's generation chart and its change indicators.
 */
export const fleetSeriesSchema = z.object({
  /** The zone the chart's day was read in (the `tz` asked for). */
  timezone: z.string(),
  /** When the figures were computed, ISO (UTC). */
  generatedAt: z.string(),
  /** The viewer's local day the chart covers, as UTC instants (23 or 25 hours on DST days). */
  day: z.object({ start: z.string(), end: z.string() }),
  /** Today's hours in the viewer's zone, oldest first; the current hour holds its readings so far. */
  generation: z.array(providerHourSchema),
  /**
   * Energy so far today against yesterday up to the same wall-clock time, each system in its own
   * zone, both integrated from hourly mean power. Covers the systems that were reporting by this
   * time yesterday, so a newly connected system does not count as growth.
   */
  today: z.object({
    energyWh: z.number(),
    yesterdaySameTimeWh: z.number(),
    /**
     * Percent; null when yesterday's energy by this time is 0 or unknown, or when fewer than 90 % of
     * the systems with data today have a yesterday (a history still arriving).
     */
    changePct: z.number().nullable(),
    systemCount: z.number(),
  }),
  /** Fleet performance ratio (actual over irradiance-expected energy). */
  performance: z.object({
    /** Today so far, over the systems with an expectation; null before any is expected. */
    todayPr: z.number().nullable(),
    /** Median of the fleet's daily PR over the previous 7 complete local days that have one. */
    medianPr7d: z.number().nullable(),
    /** Percent change of todayPr against medianPr7d. */
    changePct: z.number().nullable(),
    /** How many of the 7 days had a PR (days without data are left out of the median). */
    dayCount: z.number(),
  }),
});
export type FleetSeries = z.infer<typeof fleetSeriesSchema>;
