import { providerRegistrations } from "./provider-list";

/**
 * One registration per provider (worker/providers/<id>/registration.ts, listed once in
 * schema/provider-list.ts): everything outside the provider's code that names a provider derives
 * from it (ids, names, URL variables and their defaults, the sandbox's mounts and fault groups, the
 * start script's and the tests' URL variables, the client's lists, names and colours), and the
 * landing page's line in each language (web/lib/i18n/landing/) is typed by its ids. It is plain
 * data so the worker, the client, the sandbox, the scripts and the test configuration can all read
 * it. tests/worker/providers/registration.test.ts and tests/node/provider-registration.test.ts
 * fail when anything disagrees with it.
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
  /**
   * The sandbox's fault group for this endpoint's calls (`createSandbox().faults`): the provider's
   * id unless the vendor's APIs are faulted apart (SolaX's token API and its OpenAPI).
   */
  faults?: string;
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
  /**
   * Where the dashboard's provider breakdown lists an API provider, lowest first; those without
   * one follow in registration order.
   */
  breakdownPosition?: number;
}

export { providerRegistrations };

type Registered = (typeof providerRegistrations)[number];
export type RegisteredProviderId = Registered["id"];
/** The providers synced over a vendor API (the others import files). */
export type ApiProviderId = Extract<Registered, { ingestion: "api" }>["id"];
type RegisteredUrl = Registered["urls"][number];
/** The keys of `ProviderUrls`. */
export type ProviderUrlKey = RegisteredUrl["key"];
/** The environment variables of the vendors' URLs. */
export type ProviderUrlVariable = RegisteredUrl["env"];
type FaultGroupsOf<P> = P extends { id: infer Id; urls: readonly (infer Url)[] }
  ? Url extends { faults: infer Group }
    ? Group
    : Id
  : never;
/** The sandbox's fault groups: each API provider's id, and the groups its URLs name. */
export type RegisteredFaultVendor = FaultGroupsOf<Registered>;

/** Every provider, in registration order (the landing page, the credential forms). */
export const registeredProviderIds = providerRegistrations.map((p) => p.id) as [
  RegisteredProviderId,
  ...RegisteredProviderId[],
];

const isApi = (p: ProviderRegistration) => p.ingestion === "api";

/** The API providers, in registration order. */
export const apiProviderIds = providerRegistrations.filter(isApi).map((p) => p.id) as [
  ApiProviderId,
  ...ApiProviderId[],
];

/** Every provider, the API ones first (the analytics filter), each group in registration order. */
export const apiFirstProviderIds = [
  ...apiProviderIds,
  ...providerRegistrations.filter((p) => !isApi(p)).map((p) => p.id),
] as [RegisteredProviderId, ...RegisteredProviderId[]];

const breakdownRank = (p: ProviderRegistration) => p.breakdownPosition ?? Number.POSITIVE_INFINITY;

/**
 * The dashboard's provider breakdown: the API providers by `breakdownPosition`, then the others in
 * registration order (the sort is stable).
 */
export const breakdownProviderIds = providerRegistrations
  .filter(isApi)
  .sort((a, b) => breakdownRank(a) - breakdownRank(b))
  .map((p) => p.id) as [ApiProviderId, ...ApiProviderId[]];

export const providerUrlRegistrations: readonly ProviderUrlRegistration[] = providerRegistrations.flatMap(
  (p): readonly ProviderUrlRegistration[] => p.urls,
);

export const providerRegistration = (id: RegisteredProviderId): ProviderRegistration => {
  const found = providerRegistrations.find((p) => p.id === id);
  if (!found) throw new Error(`unregistered provider ${id}`);
  return found;
};

/**
 * The URL variables pointed at a sandbox served at `origin` (`npm start`, the test configuration);
 * a test configuration that registers more providers hands in its own list.
 */
export const sandboxUrlVariables = (
  origin: string,
  registrations: readonly ProviderRegistration[] = providerRegistrations,
): Record<ProviderUrlVariable, string> =>
  Object.fromEntries(
    registrations.flatMap((p) => p.urls).map((u) => [u.env, `${origin}${u.sandboxMount}`]),
  ) as Record<ProviderUrlVariable, string>;
