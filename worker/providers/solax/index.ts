import { providerRegistration } from "../../../schema/provider-registry";
import type { ProviderAdapter } from "../types";
import { type SolaxCredentials, solaxCredentialsSchema, solaxFields } from "./credentials";
import { fetchSolaxHistory, SOLAX_HISTORY_CALLS_PER_DAY } from "./history";
import { syncOpenApiPage, testOpenApiConnection } from "./openapi";
import { OPENAPI_LIMITS } from "./openapi-client";
import { fetchTokenSnapshot, TOKEN_API_LIMITS, testTokenConnection } from "./token-api";

/**
 * SolaX Cloud through either of its APIs, chosen in the credential form: the token API (one
 * dongle per inverter, 10 calls a minute) or the Developer OpenAPI (plants, devices and alarms
 * of the whole account, 100 calls a minute).
 */
export const solaxAdapter: ProviderAdapter<SolaxCredentials> = {
  id: "solax",
  displayName: providerRegistration("solax").displayName,
  description:
    "SolaX inverters through SolaX Cloud: the token API with the dongles' registration numbers, or the Developer OpenAPI.",
  ingestion: "api",
  fields: solaxFields,
  credentialsSchema: solaxCredentialsSchema,
  // Each API limits its own key: the token per minute and per day, the application per minute.
  callPlan: (credentials) =>
    credentials.apiType === "token"
      ? // The token is its own secret: whoever has it is the credential.
        {
          key: `token:${credentials.tokenId}`,
          secret: credentials.tokenId,
          perEndpoint: false,
          limits: TOKEN_API_LIMITS,
        }
      : {
          key: `openapi:${credentials.clientId}`,
          secret: credentials.clientSecret,
          perEndpoint: false,
          limits: OPENAPI_LIMITS,
        },

  testConnection(ctx, credentials) {
    return credentials.apiType === "token"
      ? testTokenConnection(ctx, credentials)
      : testOpenApiConnection(ctx, credentials);
  },

  async syncPage(ctx, credentials, cursor, known) {
    if (credentials.apiType !== "token") return syncOpenApiPage(ctx, credentials, cursor, known);
    // The token API reads one dongle per call and an account has a few: one unit holds them all;
    // it has no lists to skip.
    return { ...(await fetchTokenSnapshot(ctx, credentials)), nextCursor: null, pagesRead: 1, totalPages: 1 };
  },

  // The token API reads live values only; the Developer OpenAPI has device history.
  fetchHistory: async (ctx, credentials, request) =>
    credentials.apiType === "token" ? null : fetchSolaxHistory(ctx, credentials, request),
  historyCallsPerDay: (credentials) => (credentials.apiType === "token" ? 0 : SOLAX_HISTORY_CALLS_PER_DAY),
};
