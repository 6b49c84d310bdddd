import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AttachSystemInput, CreateSiteInput, UpdateSiteInput } from "../../../schema/api/sites";
import { type ApiAnswer, api } from "../api";

/**
 * Everything about sites lives under ['sites'] (the provider screens invalidate that prefix after a
 * sync), available systems included: a sync changes them too.
 */
export const siteKeys = {
  all: ["sites"] as const,
  list: () => [...siteKeys.all, "list"] as const,
  enhanced: () => [...siteKeys.all, "enhanced"] as const,
  available: () => [...siteKeys.all, "available-systems"] as const,
};

/** Portfolio totals are summed from their sites, so site writes refresh them too. */
const portfoliosKey = ["portfolios"] as const;
const dashboardKey = ["dashboard"] as const;

/**
 * Every site (the unpaged call: the first 1,000 by name), or the first `pageSize` of them by
 * name: the dashboard's weather needs one, where the whole list is ~700 KB at fleet size.
 */
export const sitesQueryOptions = (pageSize?: number) =>
  queryOptions({
    queryKey: pageSize ? [...siteKeys.list(), pageSize] : siteKeys.list(),
    queryFn: ({ signal }) => api.get("/sites", { query: pageSize ? { pageSize } : {}, signal }),
  });

export const enhancedSitesQueryOptions = () =>
  queryOptions({
    queryKey: siteKeys.enhanced(),
    queryFn: ({ signal }) => api.get("/sites/enhanced", { signal }),
  });

export const availableSystemsQueryOptions = () =>
  queryOptions({
    queryKey: siteKeys.available(),
    queryFn: ({ signal }) => api.get("/available-systems", { signal }),
    retry: false,
  });

/** How many sites the organisation has, from the site counts (not the list, which a large fleet pages). */
export const siteTotalQueryOptions = () =>
  queryOptions({
    queryKey: [...siteKeys.all, "total"] as const,
    queryFn: ({ signal }) => api.get("/sites/counts", { signal }),
    select: (counts) => counts.total,
    retry: false,
  });

/**
 * The sidebar's Sites badge: how many sites the organisation has (undefined while unknown).
 * `enabled` is false for an account without an organisation (a superAdmin has no sites).
 */
export function useSiteCount(enabled = true): number | undefined {
  return useQuery({ ...siteTotalQueryOptions(), enabled }).data;
}

function refreshSites(queryClient: QueryClient) {
  return Promise.all(
    [siteKeys.all, portfoliosKey, dashboardKey].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}

/** A site for each given plant (or every free one) that has a place. */
export function useSitesFromSystemsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (systemIds?: string[]) =>
      api.post("/sites/from-systems", { json: systemIds ? { systemIds } : {} }),
    onSuccess: () => refreshSites(queryClient),
  });
}

/** The site as POST /api/sites answers it (the created site, with its id). */
export type CreatedSite = ApiAnswer<"POST", "/sites">;

export function useCreateSiteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateSiteInput) => api.post("/sites", { json: input }),
    onSuccess: () => refreshSites(queryClient),
  });
}

export interface CreateSiteWithSystemsInput {
  site: CreateSiteInput;
  systems: AttachSystemInput[];
}

/**
 * The wizard's create: POST /api/sites, then POST /api/sites/{id}/systems once per system, in order.
 * When a system cannot be attached the new site is deleted again (its attached systems return to
 * the available list), so a retry does not leave a half-built duplicate behind.
 */
export function useCreateSiteWithSystemsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ site, systems }: CreateSiteWithSystemsInput) => {
      const created = await api.post("/sites", { json: site });
      const param = { id: created.id };
      try {
        for (const system of systems) await api.post("/sites/:id/systems", { param, json: system });
      } catch (error) {
        await api.delete("/sites/:id", { param }).catch(() => undefined);
        throw error;
      }
      return { site: created, systemCount: systems.length };
    },
    onSettled: () => refreshSites(queryClient),
  });
}

export function useUpdateSiteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ siteId, changes }: { siteId: string; changes: UpdateSiteInput }) =>
      api.patch("/sites/:id", { param: { id: siteId }, json: changes }),
    onSuccess: () => refreshSites(queryClient),
  });
}

export function useDeleteSiteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (siteId: string) => api.delete("/sites/:id", { param: { id: siteId } }),
    onSuccess: () => refreshSites(queryClient),
  });
}

export function useDetachSystemMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ siteId, systemId }: { siteId: string; systemId: string }) =>
      api.delete("/sites/:id/systems/:systemId", { param: { id: siteId, systemId } }),
    onSuccess: () => refreshSites(queryClient),
  });
}
