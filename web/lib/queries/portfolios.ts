import { type QueryClient, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { UpdatePortfolioInput } from "../../../schema/api/portfolios";
import { api } from "../api";

export const portfolioKeys = {
  all: ["portfolios"] as const,
  list: () => [...portfolioKeys.all, "list"] as const,
  sites: (portfolioId: string) => [...portfolioKeys.all, portfolioId, "sites"] as const,
};

/** GET /api/portfolios: each portfolio with its real site count and totals summed server-side. */
export const portfoliosQueryOptions = () =>
  queryOptions({
    queryKey: portfolioKeys.list(),
    queryFn: ({ signal }) => api.get("/portfolios", { signal }),
  });

export const portfolioSitesQueryOptions = (portfolioId: string) =>
  queryOptions({
    queryKey: portfolioKeys.sites(portfolioId),
    queryFn: ({ signal }) => api.get("/portfolios/:id/sites", { param: { id: portfolioId }, signal }),
  });

export interface CreatePortfolioInput {
  name: string;
  /** Left out when empty. */
  description?: string;
}

const refresh = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: portfolioKeys.all });

/** The name trimmed; the description trimmed and omitted when empty. */
export function portfolioInput(name: string, description: string): CreatePortfolioInput {
  const trimmed = description.trim();
  return trimmed ? { name: name.trim(), description: trimmed } : { name: name.trim() };
}

export function useCreatePortfolioMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreatePortfolioInput) => api.post("/portfolios", { json: input }),
    onSuccess: () => refresh(queryClient),
  });
}

export function useUpdatePortfolioMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ portfolioId, changes }: { portfolioId: string; changes: UpdatePortfolioInput }) =>
      api.patch("/portfolios/:id", { param: { id: portfolioId }, json: changes }),
    onSuccess: () => refresh(queryClient),
  });
}

export function useDeletePortfolioMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (portfolioId: string) => api.delete("/portfolios/:id", { param: { id: portfolioId } }),
    onSuccess: () => refresh(queryClient),
  });
}

export function useAddPortfolioSitesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ portfolioId, siteIds }: { portfolioId: string; siteIds: string[] }) =>
      api.post("/portfolios/:id/sites", { param: { id: portfolioId }, json: { siteIds } }),
    onSuccess: () => refresh(queryClient),
  });
}

export function useRemovePortfolioSiteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ portfolioId, siteId }: { portfolioId: string; siteId: string }) =>
      api.delete("/portfolios/:id/sites/:siteId", { param: { id: portfolioId, siteId } }),
    onSuccess: () => refresh(queryClient),
  });
}
