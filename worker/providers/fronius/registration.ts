import type { ProviderRegistration } from "../../../schema/provider-registry";

/** Fronius Solar.web's registration (listed in schema/provider-list.ts). */
export const froniusRegistration = {
  id: "fronius",
  displayName: "Fronius Solar.web",
  shortName: "Fronius",
  chartColour: "violet",
  ingestion: "api",
  urls: [
    {
      key: "fronius",
      env: "FRONIUS_API_URL",
      defaultUrl: "https://api.solarweb.com/swqapi",
      sandboxMount: "/fronius",
    },
  ],
  breakdownPosition: 4,
} as const satisfies ProviderRegistration;
