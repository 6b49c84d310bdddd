import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AttachSystemInput,
  AvailableSystem,
  CreateSiteInput,
  EnhancedSite,
  Site,
  SiteDeleted,
  SiteSystem,
  SitesFromSystems,
  UpdateSiteInput,
} from "../../../schema/api/sites";
import { api } from "../api";

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

export const sitesQueryOptions = () =>
  queryOptions({
    queryKey: siteKeys.list(),
    queryFn: ({ signal }) => api.get<Site[]>("/sites", { signal }),
  });

export const enhancedSitesQueryOptions = () =>
  queryOptions({
    queryKey: siteKeys.enhanced(),
    queryFn: ({ signal }) => api.get<EnhancedSite[]>("/sites/enhanced", { signal }),
  });

export const availableSystemsQueryOptions = () =>
  queryOptions({
    queryKey: siteKeys.available(),
    queryFn: ({ signal }) => api.get<AvailableSystem[]>("/available-systems", { signal }),
    retry: false,
  });

/** How many sites the organisation has, from the site counts (not the list, which a large fleet pages). */
export const siteTotalQueryOptions = () =>
  queryOptions({
    queryKey: [...siteKeys.all, "total"] as const,
    queryFn: ({ signal }) => api.get<{ total: number }>("/sites/counts", { signal }),
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
      api.post<SitesFromSystems>("/sites/from-systems", systemIds ? { systemIds } : {}),
    onSuccess: () => refreshSites(queryClient),
  });
}

/** The site as POST /api/sites answers it (the created site, with its id). */
export type CreatedSite = EnhancedSite;

export function useCreateSiteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateSiteInput) => api.post<CreatedSite>("/sites", input),
    onSuccess: () => refreshSites(queryClient),
  });
}

export interface SystemAttached {
  message: string;
  attached: boolean;
  system: SiteSystem;
  site: EnhancedSite;
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
      const created = await api.post<CreatedSite>("/sites", site);
      const path = `/sites/${encodeURIComponent(created.id)}/systems`;
      try {
        for (const system of systems) await api.post<SystemAttached>(path, system);
      } catch (error) {
        await api.delete<SiteDeleted>(`/sites/${encodeURIComponent(created.id)}`).catch(() => undefined);
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
      api.patch<EnhancedSite>(`/sites/${encodeURIComponent(siteId)}`, changes),
    onSuccess: () => refreshSites(queryClient),
  });
}

export function useDeleteSiteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (siteId: string) => api.delete<SiteDeleted>(`/sites/${encodeURIComponent(siteId)}`),
    onSuccess: () => refreshSites(queryClient),
  });
}

export function useDetachSystemMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ siteId, systemId }: { siteId: string; systemId: string }) =>
      api.delete<{ message: string; site: EnhancedSite }>(
        `/sites/${encodeURIComponent(siteId)}/systems/${encodeURIComponent(systemId)}`,
      ),
    onSuccess: () => refreshSites(queryClient),
  });
}
