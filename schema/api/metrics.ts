import { z } from "zod";
import { exportFormatSchema } from "./exports";
import { providerIdSchema } from "./providers";

export const metricInverterSchema = z.object({
  sn: z.string().nullable(),
  state: z.number(),
  currentPowerW: z.number(),
  pac: z.number(),
  power: z.number(),
  energyWh: z.number(),
  temperatureC: z.number().nullable(),
});

/**
 * One system on the dashboard. Every name the client reads is present with one meaning each,
 * already normalised: power in W (currentPowerW, pac, currentPower, power), energy in Wh
 * (todayGenerationWh) and kWh (etoday, todayGeneration, yieldtoday), capacity in kW.
 */
export const dashboardMetricSchema = z.object({
  systemId: z.string(),
  siteId: z.string().nullable(),
  siteName: z.string().nullable(),
  stationName: z.string(),
  provider: providerIdSchema,
  providerId: z.string(),
  currentPowerW: z.number(),
  pac: z.number(),
  currentPower: z.number(),
  power: z.number(),
  todayGenerationWh: z.number(),
  etoday: z.number(),
  todayGeneration: z.number(),
  yieldtoday: z.number(),
  capacity: z.number(),
  /** Current power in kW over capacity, in %. */
  efficiency: z.number(),
  /** Today's actual over expected energy from measured irradiance; null when not known yet. */
  performanceRatio: z.number().nullable(),
  expectedTodayWh: z.number().nullable(),
  /** 1 online, 2 offline, 3 alarm. */
  state: z.number(),
  status: z.enum(["online", "offline", "fault", "stale"]),
  /** Vendor time of the newest data; null before the first sync delivered any. */
  dataTime: z.string().nullable(),
  stale: z.boolean(),
  timezone: z.string(),
  inverters: z.array(metricInverterSchema),
  location: z.object({
    address: z.string().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
  }),
});
export type DashboardMetric = z.infer<typeof dashboardMetricSchema>;

/**
 * Entries per page of GET /api/dashboard/metrics: a fleet of 20,000 systems is 15 MB of JSON,
 * which no client should have to inflate and parse to show a screen; a page is under 1 MB.
 */
export const METRICS_PAGE_SIZE = 1_000;

export const metricsQuerySchema = z.strictObject({
  /** 1-based; a page past the last is an empty list. `?format=csv` exports every system, unpaged. */
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  format: exportFormatSchema,
});

export const dashboardFallbackSchema = z.object({
  matchedSites: z.number(),
  totalCurrentPower: z.number(),
  /** kWh, as the client's fallback reads it. */
  totalTodayGeneration: z.number(),
});

/*
 * What an entry means, read the same way by the server's read models (totals, sort, search) and
 * the screens that show entries.
 */

/** The name a system is shown and sorted by. */
export const systemName = (metric: Pick<DashboardMetric, "stationName" | "siteName" | "systemId">) =>
  metric.stationName || metric.siteName || metric.systemId;

/** A system without a known capacity (SolaX's token API gives none) has no efficiency, not 0 %. */
export const hasCapacity = (metric: Pick<DashboardMetric, "capacity">) => metric.capacity > 0;

export function inverterCounts(metric: Pick<DashboardMetric, "inverters">): {
  online: number;
  total: number;
} {
  return {
    online: metric.inverters.filter((inverter) => inverter.state === 1).length,
    total: metric.inverters.length,
  };
}
