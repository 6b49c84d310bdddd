import type { ProviderUrls } from "./types";

/** The vendors' production hosts; each can be overridden by an environment variable. */
export const defaultProviderUrls: ProviderUrls = {
  solis: "https://www.soliscloud.com:13333",
  fronius: "https://api.solarweb.com/swqapi",
  sma: "https://monitoring.smaapis.de",
  smaAuth: "https://auth.smaapis.de",
  smaConsent: "https://async-auth.smaapis.de",
  solax: "https://global.solaxcloud.com",
  solaxOpenApi: "https://openapi-eu.solaxcloud.com",
};

export interface ProviderUrlEnv {
  SOLIS_API_URL?: string;
  FRONIUS_API_URL?: string;
  SMA_API_URL?: string;
  SMA_AUTH_URL?: string;
  SMA_CONSENT_URL?: string;
  SOLAX_API_URL?: string;
  SOLAX_OPENAPI_URL?: string;
}

const trim = (url: string) => url.replace(/\/+$/, "");

export function providerUrls(env: ProviderUrlEnv): ProviderUrls {
  return {
    solis: trim(env.SOLIS_API_URL || defaultProviderUrls.solis),
    fronius: trim(env.FRONIUS_API_URL || defaultProviderUrls.fronius),
    sma: trim(env.SMA_API_URL || defaultProviderUrls.sma),
    smaAuth: trim(env.SMA_AUTH_URL || defaultProviderUrls.smaAuth),
    smaConsent: trim(env.SMA_CONSENT_URL || defaultProviderUrls.smaConsent),
    solax: trim(env.SOLAX_API_URL || defaultProviderUrls.solax),
    solaxOpenApi: trim(env.SOLAX_OPENAPI_URL || defaultProviderUrls.solaxOpenApi),
  };
}

/** A call context for adapter tests and the sandbox: everything routed to one sandbox app. */
export function sandboxUrls(origin: string): ProviderUrls {
  return {
    solis: `${origin}/solis`,
    fronius: `${origin}/fronius`,
    sma: `${origin}/sma`,
    smaAuth: `${origin}/sma-auth`,
    // The sandbox serves the token and consent endpoints from one mount.
    smaConsent: `${origin}/sma-auth`,
    solax: `${origin}/solax`,
    solaxOpenApi: `${origin}/solax-openapi`,
  };
}
