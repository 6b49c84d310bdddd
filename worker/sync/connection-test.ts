import { ProviderHttp } from "../providers/http";
import { providerBudget } from "../providers/registry";
import type { ProviderAdapter } from "../providers/types";
import { providerUrls } from "../providers/urls";
import { memorySession } from "./source";
import type { SyncDeps } from "./types";

/** A test is a person waiting for an answer: it waits at most this long for the credential's budget. */
const CONNECTION_TEST_BUDGET_WAIT_MS = 20_000;

/**
 * Asks the vendor whether credentials not yet stored work, through the credential's budget and
 * with a session that lives only for the test. A refusal throws the vendor's ProviderError.
 */
export async function testVendorConnection(
  deps: Pick<SyncDeps, "env" | "fetch">,
  adapter: ProviderAdapter,
  credentials: unknown,
): Promise<{ sitesFound: number }> {
  const http = new ProviderHttp({
    fetch: deps.fetch,
    budget: await providerBudget(deps.env, adapter, credentials),
    maxBudgetWaitMs: CONNECTION_TEST_BUDGET_WAIT_MS,
  });
  const { sitesFound } = await adapter.testConnection(
    {
      http,
      urls: providerUrls(deps.env),
      now: () => Date.now(),
      session: memorySession(null).session,
    },
    credentials,
  );
  return { sitesFound };
}
