import { z } from "zod";

export const weatherHistoryQuerySchema = z.strictObject({
  /** A calendar day on the site's (or plant's) own clock. */
  date: z.iso.date({ error: "Date must be a calendar day as YYYY-MM-DD" }),
});
export type WeatherHistoryQuery = z.infer<typeof weatherHistoryQuerySchema>;

export const weatherHistoryHourSchema = z.object({
  /** Start of the hour (ISO, UTC). */
  time: z.string(),
  /** Mean global horizontal irradiance over the hour, W/m²; null when none is recorded. */
  irradianceWm2: z.number().nullable(),
  /** Mean power over the hour summed over the site's systems that reported, W. */
  powerW: z.number().nullable(),
  /** Mean power the site's capacity should give at the hour's irradiance, W. */
  expectedPowerW: z.number().nullable(),
});
export type WeatherHistoryHour = z.infer<typeof weatherHistoryHourSchema>;

export const weatherHistorySchema = z.object({
  /** The site the day is of, or null for one plant's day. */
  siteId: z.string().nullable(),
  /** The plant the day is of, or null for a site's (all its systems) day. */
  systemId: z.string().nullable(),
  /** The site's or the plant's name. */
  name: z.string(),
  timezone: z.string(),
  /** The site-local day asked for, YYYY-MM-DD. */
  date: z.string(),
  /** DC capacity the expectation uses (the site's, as on its card, or the plant's), W; null when unknown. */
  capacityW: z.number().nullable(),
  systemCount: z.number(),
  /** The day's hours in order: 24, or 23 and 25 on DST days. */
  hours: z.array(weatherHistoryHourSchema),
  /** Over the hours that have finished; `through` is when the last of them ended (ISO). */
  totals: z.object({
    through: z.string().nullable(),
    /** Wh/m² */
    irradiationWhM2: z.number().nullable(),
    energyWh: z.number().nullable(),
    expectedWh: z.number().nullable(),
    /** Actual over expected energy across the hours that have both; null when nothing was expected. */
    performanceRatio: z.number().nullable(),
  }),
  source: z.string(),
});
export type WeatherHistory = z.infer<typeof weatherHistorySchema>;
