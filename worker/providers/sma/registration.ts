import type { ProviderRegistration } from "../../../schema/provider-registry";

/** SMA's registration (listed in schema/provider-list.ts). */
export const smaRegistration = {
  id: "sma",
  displayName: "SMA",
  shortName: "SMA",
  chartColour: "blue",
  ingestion: "api",
  urls: [
    { key: "sma", env: "SMA_API_URL", defaultUrl: "https://monitoring.smaapis.de", sandboxMount: "/sma" },
    {
      key: "smaAuth",
      env: "SMA_AUTH_URL",
      defaultUrl: "https://auth.smaapis.de",
      sandboxMount: "/sma-auth",
    },
    // SMA's backchannel consent endpoints: a host of their own in production, one sandbox mount with auth.
    {
      key: "smaConsent",
      env: "SMA_CONSENT_URL",
      defaultUrl: "https://async-auth.smaapis.de",
      sandboxMount: "/sma-auth",
    },
  ],
  breakdownPosition: 2,
} as const satisfies ProviderRegistration;
