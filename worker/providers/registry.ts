import type { ProviderId } from "../../schema/api/providers";
import { providerRegistrations } from "../../schema/provider-registry";
import type { Env } from "../env";
import { type CallBudget, sharedBudget } from "./budget";
import { ProviderError } from "./errors";
import { providerImplementations } from "./implementations";
import { credentialValues, redactSecrets } from "./redact";
import type { ProviderAdapter, ProviderDefinition, ProviderUrls } from "./types";

/** A ProviderError as it may leave the adapter: without any of the credential's own values. */
function withoutCredentials(error: unknown, credentials: unknown): never {
  if (error instanceof ProviderError) {
    const message = redactSecrets(error.message, credentialValues(credentials));
    if (message !== error.message)
      throw new ProviderError(error.kind, message, error.retryAfterMs, error.status);
  }
  throw error;
}

/** Every adapter's errors pass through here, whatever the vendor echoed back. */
function guarded<C>(adapter: ProviderAdapter<C>): ProviderAdapter<C> {
  return {
    ...adapter,
    testConnection: (ctx, credentials) =>
      adapter.testConnection(ctx, credentials).catch((error) => withoutCredentials(error, credentials)),
    syncPage: (ctx, credentials, cursor, known) =>
      adapter
        .syncPage(ctx, credentials, cursor, known)
        .catch((error) => withoutCredentials(error, credentials)),
    fetchHistory: (ctx, credentials, request) =>
      adapter
        .fetchHistory(ctx, credentials, request)
        .catch((error) => withoutCredentials(error, credentials)),
  };
}

const implementations: Readonly<Record<string, ProviderDefinition>> = providerImplementations;

const isAdapter = (definition: ProviderDefinition): definition is ProviderAdapter =>
  definition.ingestion === "api";

/**
 * Every provider Sunfleet knows, in registration order (schema/provider-list.ts): each
 * registration's code from worker/providers/implementations.ts, API adapters guarded.
 */
export const providerDefinitions: ProviderDefinition[] = providerRegistrations.map((registration) => {
  const definition = implementations[registration.id];
  if (!definition) {
    throw new Error(
      `${registration.id} is registered without its code in worker/providers/implementations.ts`,
    );
  }
  return isAdapter(definition) ? guarded(definition) : definition;
});

const apiAdapters: ProviderAdapter[] = providerDefinitions.filter(isAdapter);

export function findProvider(id: ProviderId): ProviderDefinition | undefined {
  return providerDefinitions.find((p) => p.id === id);
}

/** The adapter that syncs a provider over its API; undefined for import-only providers. */
export function findApiAdapter(id: ProviderId): ProviderAdapter | undefined {
  return apiAdapters.find((p) => p.id === id);
}

/** The shared call budget of these credentials (one Durable Object per credential). */
export function providerBudget(
  env: Pick<Env, "VENDOR_BUDGET">,
  adapter: ProviderAdapter,
  credentials: unknown,
): Promise<CallBudget> {
  return sharedBudget(env.VENDOR_BUDGET, adapter.id, adapter.callPlan(credentials));
}

/** Why these credentials may not be used for outbound calls, or null when they may. */
export function outboundProblem(adapter: ProviderAdapter, credentials: unknown, urls: ProviderUrls) {
  return adapter.outboundProblem?.(credentials, urls) ?? null;
}
