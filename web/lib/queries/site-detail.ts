import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { UpdateSystemInput } from "../../../schema/api/systems";
import { api } from "../api";
import { lossKeys } from "./losses";

/** One site with its systems, under ['sites'] so every site write refreshes it. */
export const siteDetailQueryOptions = (siteId: string) =>
  queryOptions({
    queryKey: ["sites", "detail", siteId] as const,
    queryFn: ({ signal }) => api.get("/sites/:id", { param: { id: siteId }, signal }),
  });

/** Sets a system's tilt, azimuth and AC limit (null: back to the default); its expectation follows. */
export function useUpdateSystemMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ systemId, changes }: { systemId: string; changes: UpdateSystemInput }) =>
      api.patch("/systems/:id", { param: { id: systemId }, json: changes }),
    onSuccess: () =>
      Promise.all([["sites"], lossKeys.all].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
