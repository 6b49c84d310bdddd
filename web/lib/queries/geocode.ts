import { queryOptions, useMutation } from "@tanstack/react-query";
import { api } from "../api";

/** Address autocomplete starts at 5 characters. */
export const AUTOCOMPLETE_MIN_CHARS = 5;

export const geocodeKeys = {
  all: ["geocode"] as const,
  search: (address: string) => [...geocodeKeys.all, "search", address] as const,
};

/** GET /api/geocode?address=: suggestions for the wizard (failures are only logged, by the query cache). */
export const geocodeSearchQueryOptions = (address: string) =>
  queryOptions({
    queryKey: geocodeKeys.search(address),
    queryFn: ({ signal }) => api.get("/geocode", { query: { address }, signal }),
    enabled: address.trim().length >= AUTOCOMPLETE_MIN_CHARS,
    // Places do not move; the server caches lookups for 30 days as well.
    staleTime: 60 * 60_000,
    retry: false,
  });

export interface GeocodeInput {
  address: string;
  /** ISO codes such as US, GB, AU; left out when blank. */
  country?: string;
}

/** POST /api/geocode: verifies one address (the Add Site dialog's Search button). */
export function useGeocodeMutation() {
  return useMutation({
    mutationFn: (input: GeocodeInput) => api.post("/geocode", { json: input }),
  });
}
