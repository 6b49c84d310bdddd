/**
 * One registration per provider: everything outside the adapter's folder that names a provider
 * derives from this list (ids, names, URL variables and their defaults, the sandbox's mounts,
 * colours). It is plain data so the worker, the client, the sandbox and the test configuration
 * can all read it; the adapter (worker/providers/<name>/) takes its id and name from here, and
 * tests/worker/providers/registration.test.ts fails when anything disagrees.
 */

/** One vendor endpoint the worker calls: the variable that overrides it and where the sandbox serves it. */
export interface ProviderUrlRegistration {
  /** The key adapters read in `ProviderUrls`. */
  key: string;
  /** The environment variable that overrides the production host. */
  env: `${string}_URL`;
  defaultUrl: string;
  /** The path the provider sandbox serves this endpoint under (`npm start` and the tests point `env` there). */
  sandboxMount: `/${string}`;
}

export interface ProviderRegistration {
  id: string;
  /** The vendor's product name, shown in forms and messages. */
  displayName: string;
  /** The brand name in lists, filters and charts. */
  shortName: string;
  /** Tremor colour of the provider's series in charts. */
  chartColour: string;
  /** How data arrives: a polled cloud API, or files exported from the vendor's portal. */
  ingestion: "api" | "csv-import";
  urls: readonly ProviderUrlRegistration[];
}

/** Every provider, in the order the product lists them. */
export const providerRegistrations = [
  {
    id: "meteronline",
    displayName: "Meteronline",
    shortName: "Meteronline",
    chartColour: "cyan",
    ingestion: "csv-import",
    urls: [],
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
      },
    ],
  },
] as const satisfies readonly ProviderRegistration[];

type Registered = (typeof providerRegistrations)[number];
export type RegisteredProviderId = Registered["id"];
type RegisteredUrl = Registered["urls"][number];
/** The keys of `ProviderUrls`. */
export type ProviderUrlKey = RegisteredUrl["key"];
/** The environment variables of the vendors' URLs. */
export type ProviderUrlVariable = RegisteredUrl["env"];

export const registeredProviderIds = providerRegistrations.map((p) => p.id) as [
  RegisteredProviderId,
  ...RegisteredProviderId[],
];

export const providerUrlRegistrations: readonly ProviderUrlRegistration[] = providerRegistrations.flatMap(
  (p): readonly ProviderUrlRegistration[] => p.urls,
);

export const providerRegistration = (id: RegisteredProviderId): ProviderRegistration => {
  const found = providerRegistrations.find((p) => p.id === id);
  if (!found) throw new Error(`unregistered provider ${id}`);
  return found;
};

/** The URL variables pointed at a sandbox served at `origin` (`npm start`, the test configuration). */
export const sandboxUrlVariables = (origin: string): Record<ProviderUrlVariable, string> =>
  Object.fromEntries(providerUrlRegistrations.map((u) => [u.env, `${origin}${u.sandboxMount}`])) as Record<
    ProviderUrlVariable,
    string
  >;
