import type { ProviderRegistration } from "../../../schema/provider-registry";

/** SolisCloud's registration (listed in schema/provider-list.ts). */
export const solisRegistration = {
  id: "solis",
  displayName: "SolisCloud",
  shortName: "Solis",
  chartColour: "amber",
  ingestion: "api",
  urls: [
    {
      key: "solis",
      env: "SOLIS_API_URL",
      defaultUrl: "https://www.soliscloud.com:13333",
      sandboxMount: "/solis",
    },
  ],
  breakdownPosition: 1,
} as const satisfies ProviderRegistration;
