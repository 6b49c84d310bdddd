import type { RegisteredProviderId } from "../../schema/provider-registry";
import { froniusAdapter } from "./fronius";
import { meteronlineDefinition } from "./meteronline/definition";
import { smaAdapter } from "./sma";
import { solaxAdapter } from "./solax";
import { solisAdapter } from "./solis";
import type { ProviderDefinition } from "./types";

/**
 * Each registered provider's code, by id: the API adapter (worker/providers/<id>/index.ts), or the
 * definition of a provider whose data is imported. The registration list (schema/provider-list.ts)
 * decides which providers exist and their order; the compiler asks for one entry per registration.
 */
export const providerImplementations = {
  meteronline: meteronlineDefinition,
  solis: solisAdapter,
  fronius: froniusAdapter,
  sma: smaAdapter,
  solax: solaxAdapter,
} satisfies Record<RegisteredProviderId, ProviderDefinition>;
