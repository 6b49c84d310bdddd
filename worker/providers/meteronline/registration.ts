import type { ProviderRegistration } from "../../../schema/provider-registry";

/** Meteronline's registration (listed in schema/provider-list.ts): a CSV import, no vendor URL. */
export const meteronlineRegistration = {
  id: "meteronline",
  displayName: "Meteronline",
  shortName: "Meteronline",
  chartColour: "cyan",
  ingestion: "csv-import",
  urls: [],
} as const satisfies ProviderRegistration;
