import type { ProviderId } from "../../schema/api/providers";
import type { Env } from "../env";
import { type CallBudget, sharedBudget } from "./budget";
import { ProviderError } from "./errors";
import { froniusAdapter } from "./fronius";
import { meteronlineDefinition } from "./meteronline/definition";
import { credentialValues, redactSecrets } from "./redact";
import { smaAdapter } from "./sma";
import { solaxAdapter } from "./solax";
import { solisAdapter } from "./solis";
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

/**
 * Every provider Sunfleet knows, in the order the product lists them. Adding a provider means
 * adding its folder and one entry here.
 */
const apiAdapters: ProviderAdapter[] = [
  guarded(solisAdapter),
  guarded(froniusAdapter),
  guarded(smaAdapter),
  guarded(solaxAdapter),
] as ProviderAdapter[];

export const providerDefinitions: ProviderDefinition[] = [meteronlineDefinition, ...apiAdapters];

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
