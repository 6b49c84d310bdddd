import { queryOptions } from "@tanstack/react-query";
import { api } from "../api";

export interface YieldEstimateInput {
  latitude: number;
  longitude: number;
  /** kW DC. */
  capacityKw: number;
}

export const solarKeys = {
  all: ["solar"] as const,
  estimate: ({ latitude, longitude, capacityKw }: YieldEstimateInput) =>
    [...solarKeys.all, "estimate", latitude, longitude, capacityKw] as const,
};

/**
 * POST /api/solar/estimate-yield as a query: the answer is a pure function of its inputs, so it is
 * cached by them and recomputed when the location or the capacity changes. It needs a
 * location and a capacity above 0.
 */
export const yieldEstimateQueryOptions = (input: YieldEstimateInput | null) =>
  queryOptions({
    queryKey: input ? solarKeys.estimate(input) : [...solarKeys.all, "estimate", "none"],
    queryFn: () => {
      if (!input) throw new Error("No location or capacity to estimate");
      return api.post("/solar/estimate-yield", {
        json: { latitude: input.latitude, longitude: input.longitude, capacity: input.capacityKw },
      });
    },
    enabled: input !== null && input.capacityKw > 0,
    staleTime: 60 * 60_000,
    retry: false,
  });
