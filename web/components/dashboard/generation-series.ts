import { summaryProviders } from "../../../schema/api/dashboard";
import type { FleetSeries } from "../../../schema/api/fleet-series";
import { formatHourMinute } from "../../lib/format";
import { providerNames } from "../../lib/providers";

export type ChartProvider = (typeof summaryProviders)[number];

export interface GenerationChartData {
  /** The providers with at least one hour today, in the provider summary's order. */
  providers: ChartProvider[];
  /** One row per hour: its start in the viewer's zone, and W per provider (by display name). */
  rows: Record<string, string | number>[];
}

const HOUR_MS = 3_600_000;

/**
 * The fleet series as stacked AreaChart rows, one per hour of the viewer's whole day so the axis
 * shows where "now" is: a provider silent in a past hour stacks as 0 W, hours still to come are
 * empty. Hours are the stored UTC hours (in a half-hour zone they start at :30).
 */
export function generationChartData(
  series: Pick<FleetSeries, "generation" | "day" | "generatedAt">,
  locale: string,
  timeZone: string | undefined,
): GenerationChartData {
  const hours = series.generation;
  const providers = summaryProviders.filter((provider) =>
    hours.some((hour) => hour.values[provider] !== undefined),
  );
  const byStart = new Map(hours.map((hour) => [Date.parse(hour.time), hour]));
  const dayStart = Date.parse(series.day.start);
  const dayEnd = Date.parse(series.day.end);
  const now = Date.parse(series.generatedAt);
  const rows: GenerationChartData["rows"] = [];
  for (let start = Math.ceil(dayStart / HOUR_MS) * HOUR_MS; start < dayEnd; start += HOUR_MS) {
    const row: Record<string, string | number> = {
      time: formatHourMinute(start, { locale, timeZone }),
    };
    const hour = byStart.get(start);
    if (hour || start <= now) {
      for (const provider of providers) row[providerNames[provider]] = hour?.values[provider] ?? 0;
    }
    rows.push(row);
  }
  return { providers, rows };
}
