import { describe, expect, it } from "vitest";
import { ApiRequestError } from "../../web/lib/api";
import { createQueryClient, queryRetryDelay, shouldRetryQuery } from "../../web/lib/query-client";

describe("query retry rule", () => {
  it("retries other failures up to twice", () => {
    const error = new Error("500: Internal Server Error");
    expect(shouldRetryQuery(0, error)).toBe(true);
    expect(shouldRetryQuery(1, error)).toBe(true);
    expect(shouldRetryQuery(2, error)).toBe(false);
  });

  it("never retries authentication failures or a missing company", () => {
    expect(
      shouldRetryQuery(0, new ApiRequestError('401: {"error":"Not authenticated"}', 401, "/api/x")),
    ).toBe(false);
    expect(shouldRetryQuery(0, new Error("UNAUTHORIZED"))).toBe(false);
    expect(shouldRetryQuery(0, new Error('400: {"error":"Company ID required"}'))).toBe(false);
    // Only the exact word: a message merely containing it is retried.
    expect(shouldRetryQuery(0, new Error("UNAUTHORIZED_SOMETHING"))).toBe(true);
  });

  it("doubles the delay from 1 s up to 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(queryRetryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it("configures queries and mutations with the app's retry and freshness defaults", () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries?.staleTime).toBe(30_000);
    expect(defaults.queries?.gcTime).toBe(300_000);
    expect(defaults.queries?.refetchOnWindowFocus).toBe(false);
    expect(defaults.queries?.refetchOnReconnect).toBe(false);
    expect(defaults.queries?.refetchInterval).toBe(false);
    expect(defaults.queries?.retry).toBe(shouldRetryQuery);
    expect(defaults.mutations?.retry).toBe(false);
  });
});
