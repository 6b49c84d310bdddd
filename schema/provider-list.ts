import { froniusRegistration } from "../worker/providers/fronius/registration";
import { meteronlineRegistration } from "../worker/providers/meteronline/registration";
import { smaRegistration } from "../worker/providers/sma/registration";
import { solaxRegistration } from "../worker/providers/solax/registration";
import { solisRegistration } from "../worker/providers/solis/registration";

/**
 * Every provider Sunfleet knows, one registration each, in the order the product lists them
 * (schema/provider-registry.ts derives every list from it). The test configuration's provider
 * fixture project extends this list (tests/fixtures/providers/).
 */
export const providerRegistrations = [
  meteronlineRegistration,
  solisRegistration,
  froniusRegistration,
  smaRegistration,
  solaxRegistration,
] as const;
