import type { ProviderHour } from "../../../schema/api/fleet-series";
import { formatHourMinute } from "../../lib/format";
import { providerNames } from "../../lib/providers";
import { summaryProviders } from "./fleet";

export type ChartProvider = (typeof summaryProviders)[number];

export interface GenerationChartData {
  /** The providers with at least one hour today, in the provider summary's order. */
  providers: ChartProvider[];
  /** One row per hour: its start in the viewer's zone, and W per provider (by display name). */
  rows: Record<string, string | number>[];
}

/** The fleet series' hours as stacked AreaChart rows: a provider silent in an hour stacks as 0 W. */
export function generationChartData(
  hours: readonly ProviderHour[],
  locale: string,
  timeZone: string | undefined,
): GenerationChartData {
  const providers = summaryProviders.filter((provider) =>
    hours.some((hour) => hour.values[provider] !== undefined),
  );
  const rows = hours.map((hour) => {
    const row: Record<string, string | number> = {
      time: formatHourMinute(hour.time, { locale, timeZone }),
    };
    for (const provider of providers) row[providerNames[provider]] = hour.values[provider] ?? 0;
    return row;
  });
  return { providers, rows };
}
