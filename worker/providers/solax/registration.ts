import type { ProviderRegistration } from "../../../schema/provider-registry";

/** SolaX Cloud's registration (listed in schema/provider-list.ts): the token API and the Developer OpenAPI. */
export const solaxRegistration = {
  id: "solax",
  displayName: "SolaX Cloud",
  shortName: "SolaX",
  chartColour: "emerald",
  ingestion: "api",
  urls: [
    {
      key: "solax",
      env: "SOLAX_API_URL",
      defaultUrl: "https://global.solaxcloud.com",
      sandboxMount: "/solax",
    },
    {
      key: "solaxOpenApi",
      env: "SOLAX_OPENAPI_URL",
      defaultUrl: "https://openapi-eu.solaxcloud.com",
      sandboxMount: "/solax-openapi",
      faults: "solax-openapi",
    },
  ],
  breakdownPosition: 3,
} as const satisfies ProviderRegistration;
