import type { ProviderId } from "../../schema/api/providers";
import { froniusAdapter } from "./fronius";
import { meteronlineDefinition } from "./meteronline/definition";
import { smaAdapter } from "./sma";
import { solaxAdapter } from "./solax";
import { solisAdapter } from "./solis";
import type { ProviderAdapter, ProviderDefinition } from "./types";

/**
 * Every provider Sunfleet knows, in the order the product lists them. Adding a provider means
 * adding its folder and one entry here.
 */
const apiAdapters: ProviderAdapter[] = [solisAdapter, froniusAdapter, smaAdapter, solaxAdapter];

export const providerDefinitions: ProviderDefinition[] = [meteronlineDefinition, ...apiAdapters];

export function findProvider(id: ProviderId): ProviderDefinition | undefined {
  return providerDefinitions.find((p) => p.id === id);
}

/** The adapter that syncs a provider over its API; undefined for import-only providers. */
export function findApiAdapter(id: ProviderId): ProviderAdapter | undefined {
  return apiAdapters.find((p) => p.id === id);
}

/** The spacing between calls for these credentials (some vendors limit each API differently). */
export function callIntervalMs(adapter: ProviderAdapter, credentials: unknown): number {
  return adapter.callIntervalMs?.(credentials) ?? adapter.minCallIntervalMs;
}
