import {
  type ProviderUrlKey,
  type ProviderUrlVariable,
  providerUrlRegistrations,
} from "../../schema/provider-registry";

/** Every vendor endpoint an adapter calls, by key; declared per provider in schema/provider-registry.ts. */
export type ProviderUrls = Record<ProviderUrlKey, string>;

/** The environment variables that override the vendors' production hosts. */
export type ProviderUrlEnv = Partial<Record<ProviderUrlVariable, string>>;

const trim = (url: string) => url.replace(/\/+$/, "");

const urlsBy = (value: (url: (typeof providerUrlRegistrations)[number]) => string) =>
  Object.fromEntries(providerUrlRegistrations.map((url) => [url.key, value(url)])) as ProviderUrls;

/** The vendors' production hosts. */
export const defaultProviderUrls: ProviderUrls = urlsBy((url) => url.defaultUrl);

/** The vendors' hosts: each variable when set, else the production host. */
export function providerUrls(env: ProviderUrlEnv): ProviderUrls {
  return urlsBy((url) => trim(env[url.env as ProviderUrlVariable] || url.defaultUrl));
}

/** A call context for adapter tests and the sandbox: everything routed to one sandbox app. */
export function sandboxUrls(origin: string): ProviderUrls {
  return urlsBy((url) => `${origin}${url.sandboxMount}`);
}
