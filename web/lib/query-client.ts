import { isCancelledError, MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiRequestError } from "./api";
import { getSession, subscribeSession } from "./session";

export const MAX_QUERY_RETRIES = 2;
const MAX_RETRY_DELAY_MS = 30_000;

/** Never retry an authentication failure or a missing organisation. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_QUERY_RETRIES) return false;
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes("401") || message === "UNAUTHORIZED" || message.includes("Company ID required")) {
    return false;
  }
  return true;
}

/**
 * A request given up on purpose (its screen unmounted, a newer fetch replaced it): the query's
 * CancelledError or fetch's AbortError. Not a failure: nothing is logged and no fallback runs.
 */
export function isCancellation(error: unknown): boolean {
  if (isCancelledError(error)) return true;
  // DOMException is not an Error subclass in every runtime; its name is what identifies an abort.
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}

/** 1 s, 2 s, 4 s ... capped at 30 s. */
export function queryRetryDelay(attemptIndex: number): number {
  return Math.min(1000 * 2 ** attemptIndex, MAX_RETRY_DELAY_MS);
}

function describePath(error: unknown, queryKey: readonly unknown[]): string {
  if (error instanceof ApiRequestError) return error.path;
  return queryKey.map(String).join("/");
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (isCancellation(error)) return;
        console.error(`Query failed: ${describePath(error, query.queryKey)}`, error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error) => {
        console.error("Mutation failed", error);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        gcTime: 5 * 60_000,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        retry: shouldRetryQuery,
        retryDelay: queryRetryDelay,
      },
      mutations: { retry: false },
    },
  });
}

const boundToSession = new WeakSet<QueryClient>();

/**
 * Nothing fetched for one user may be shown to the next: every change of token (a sign-out here or in
 * another tab, a new sign-in) empties the cache, whichever screen is showing.
 */
export function bindToSession(queryClient: QueryClient): QueryClient {
  if (boundToSession.has(queryClient)) return queryClient;
  boundToSession.add(queryClient);
  let token = getSession().token;
  subscribeSession(() => {
    const next = getSession().token;
    if (next === token) return;
    token = next;
    queryClient.clear();
  });
  return queryClient;
}

let appClient: QueryClient | undefined;

/** The app's one query cache, made when the first screen that fetches is shown. */
export function appQueryClient(): QueryClient {
  appClient ??= bindToSession(createQueryClient());
  return appClient;
}
