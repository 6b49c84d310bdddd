import { type QueryClient, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { PutTariffInput } from "../../../schema/api/tariffs";
import { api } from "../api";
import { lossKeys } from "./losses";

export const tariffKeys = {
  all: ["tariffs"] as const,
  site: (siteId: string) => [...tariffKeys.all, "site", siteId] as const,
  organization: () => [...tariffKeys.all, "organization"] as const,
};

export const siteTariffsQueryOptions = (siteId: string) =>
  queryOptions({
    queryKey: tariffKeys.site(siteId),
    queryFn: ({ signal }) => api.get("/sites/:id/tariffs", { param: { id: siteId }, signal }),
  });

export const organizationTariffsQueryOptions = () =>
  queryOptions({
    queryKey: tariffKeys.organization(),
    queryFn: ({ signal }) => api.get("/organization/tariffs", { signal }),
    // Settings queries do not retry: a failure shows at once with its own retry button.
    retry: false,
  });

/** A price values every loss: the losses are read again with it. */
const refresh = (queryClient: QueryClient) =>
  Promise.all([tariffKeys.all, lossKeys.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })));

export function usePutSiteTariffMutation(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PutTariffInput) =>
      api.put("/sites/:id/tariff", { param: { id: siteId }, json: input }),
    onSuccess: () => refresh(queryClient),
  });
}

/** Removes the site's own prices: it takes the organisation's default again. */
export function useClearSiteTariffMutation(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete("/sites/:id/tariff", { param: { id: siteId } }),
    onSuccess: () => refresh(queryClient),
  });
}

export function usePutOrganizationTariffMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PutTariffInput) => api.put("/organization/tariff", { json: input }),
    onSuccess: () => refresh(queryClient),
  });
}
