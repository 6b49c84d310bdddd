import type { ProviderId } from "../../schema/api/providers";
import { providerRegistrations } from "../../schema/provider-registry";

/** Brand names of the monitoring providers (not translated), from the one registration list. */
export const providerNames = Object.fromEntries(
  providerRegistrations.map((p) => [p.id, p.shortName]),
) as Record<ProviderId, string>;

/** Each provider's chart colour, from the one registration list. */
export const providerChartColours = Object.fromEntries(
  providerRegistrations.map((p) => [p.id, p.chartColour]),
) as Record<ProviderId, string>;
