import { type QueryClient, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { MeteronlineImportBody } from "../../../schema/api/meteronline";
import type { ProviderId } from "../../../schema/api/providers";
import { type ApiAnswer, ApiRequestError, api } from "../api";

/** POST /api/credentials: `sync` is the first sync's outcome, null for import-only providers. */
export type SaveCredentialsResult = ApiAnswer<"POST", "/credentials">;
export type TestConnectionResult = ApiAnswer<"POST", "/credentials/:provider/test">;
/** POST /api/providers/{p}/sync: the run's outcome, or (202) the run going on. */
export type SyncAnswer = ApiAnswer<"POST", "/providers/:provider/sync">;
/** One row of GET /api/providers/{p}/runs. */
export type SyncRun = ApiAnswer<"GET", "/providers/:provider/runs">[number];
type MeteronlineImportResult = ApiAnswer<"POST", "/providers/meteronline/import">;

export type CredentialValues = Record<string, string>;

/**
 * A 401 while saving reads "Your session has expired"; the screen shows a toast
 * with a Log Out action instead of the generic failure.
 */
export class SessionExpiredError extends Error {
  constructor() {
    super("Your session has expired. Please log in again.");
    this.name = "SessionExpiredError";
  }
}

export const providerKeys = {
  all: ["providers"] as const,
  schema: (provider: string) => [...providerKeys.all, provider, "schema"] as const,
  runs: (provider: string) => [...providerKeys.all, provider, "runs"] as const,
  credentials: ["credentials"] as const,
};

/** Other resources a save, sync or import changes (their screens own the query factories). */
const sitesKey = ["sites"] as const;
const dashboardKey = ["dashboard"] as const;
const alertsKey = ["alerts"] as const;

/** The provider list is retried 3 times, 1 s apart. */
export const PROVIDERS_RETRIES = 3;
export const PROVIDERS_RETRY_DELAY_MS = 1000;

export const providersQueryOptions = () =>
  queryOptions({
    queryKey: providerKeys.all,
    queryFn: ({ signal }) => api.get("/providers", { signal }),
    // The list is fixed by the deployment.
    staleTime: 60 * 60_000,
    retry: (failureCount, error) =>
      failureCount < PROVIDERS_RETRIES && !(error instanceof ApiRequestError && error.status === 401),
    retryDelay: PROVIDERS_RETRY_DELAY_MS,
  });

export const providerSchemaQueryOptions = (provider: string) =>
  queryOptions({
    queryKey: providerKeys.schema(provider),
    queryFn: ({ signal }) => api.get("/providers/:provider/schema", { param: { provider }, signal }),
    staleTime: 60 * 60_000,
    retry: false,
  });

export const credentialsQueryOptions = () =>
  queryOptions({
    queryKey: providerKeys.credentials,
    queryFn: ({ signal }) => api.get("/credentials", { signal }),
    retry: false,
  });

export const syncRunsQueryOptions = (provider: string) =>
  queryOptions({
    queryKey: providerKeys.runs(provider),
    queryFn: ({ signal }) => api.get("/providers/:provider/runs", { param: { provider }, signal }),
    retry: false,
  });

/** Callbacks set on the mutation itself: they run even when the screen unmounts meanwhile (a 401 signs out). */
export interface MutationCallbacks<TData, TVariables> {
  onSuccess?: (data: TData, variables: TVariables) => void;
  onError?: (error: Error, variables: TVariables) => void;
}

function invalidateAll(queryClient: QueryClient, keys: readonly (readonly unknown[])[]) {
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

export function useTestConnectionMutation(
  callbacks: MutationCallbacks<
    TestConnectionResult,
    { provider: string; credentials: CredentialValues }
  > = {},
) {
  return useMutation({
    mutationFn: ({ provider, credentials }: { provider: string; credentials: CredentialValues }) =>
      api.post("/credentials/:provider/test", { param: { provider }, json: { credentials } }),
    onSuccess: (data, variables) => callbacks.onSuccess?.(data, variables),
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}

export function useSaveCredentialsMutation(
  callbacks: MutationCallbacks<
    SaveCredentialsResult,
    { provider: ProviderId; credentials: CredentialValues }
  > = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { provider: ProviderId; credentials: CredentialValues }) => {
      try {
        return await api.post("/credentials", { json: input });
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 401) throw new SessionExpiredError();
        throw error;
      }
    },
    onSuccess: async (data, variables) => {
      callbacks.onSuccess?.(data, variables);
      // Credentials, sites and dashboard metrics are refreshed.
      await invalidateAll(queryClient, [providerKeys.credentials, sitesKey, dashboardKey]);
    },
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}

export function useDeleteCredentialsMutation(
  callbacks: MutationCallbacks<{ message: string }, ProviderId> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (provider: ProviderId) => api.delete("/credentials/:provider", { param: { provider } }),
    onSuccess: async (data, provider) => {
      callbacks.onSuccess?.(data, provider);
      await invalidateAll(queryClient, [providerKeys.credentials, providerKeys.runs(provider)]);
    },
    onError: (error, provider) => callbacks.onError?.(error, provider),
  });
}

export function useSyncProviderMutation(callbacks: MutationCallbacks<SyncAnswer, ProviderId> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (provider: ProviderId) => api.post("/providers/:provider/sync", { param: { provider } }),
    onSuccess: (data, provider) => callbacks.onSuccess?.(data, provider),
    onError: (error, provider) => callbacks.onError?.(error, provider),
    // A failed sync is recorded too (status, last error, run history), so both outcomes refresh.
    onSettled: (_data, _error, provider) =>
      invalidateAll(queryClient, [
        sitesKey,
        providerKeys.credentials,
        dashboardKey,
        alertsKey,
        providerKeys.runs(provider),
      ]),
  });
}

export function useMeteronlineImportMutation(
  callbacks: MutationCallbacks<MeteronlineImportResult, MeteronlineImportBody> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MeteronlineImportBody) => api.post("/providers/meteronline/import", { json: body }),
    onSuccess: async (data, body) => {
      callbacks.onSuccess?.(data, body);
      await invalidateAll(queryClient, [providerKeys.credentials, sitesKey, dashboardKey]);
    },
    onError: (error, body) => callbacks.onError?.(error, body),
  });
}
