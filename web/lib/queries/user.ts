import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Preferences } from "../../../schema/api/preferences";
import { api } from "../api";

/** Everything about the signed-in user lives under ['user'] so one invalidation refreshes it all. */
export const userKeys = {
  all: ["user"] as const,
  profile: () => [...userKeys.all, "profile"] as const,
  preferences: () => [...userKeys.all, "preferences"] as const,
};

export const profileQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.profile(),
    queryFn: ({ signal }) => api.get("/user/profile", { signal }),
  });

export const preferencesQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.preferences(),
    queryFn: ({ signal }) => api.get("/user/preferences", { signal }),
    // Settings queries do not retry.
    retry: false,
  });

export const timezonesQueryOptions = () =>
  queryOptions({
    queryKey: ["timezones"] as const,
    queryFn: ({ signal }) => api.get("/timezones", { signal }),
    // The zone list only changes with daylight saving; keep it for the whole visit.
    staleTime: 60 * 60_000,
    retry: false,
  });

/**
 * Saves preferences optimistically: the cache (and so the switches and the interface language) change
 * at once and are put back if the server refuses.
 */
export function useUpdatePreferencesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (next: Preferences) => api.patch("/user/preferences", { json: next }),
    onMutate: async (next) => {
      await queryClient.cancelQueries({ queryKey: userKeys.preferences() });
      const previous = queryClient.getQueryData<Preferences>(userKeys.preferences());
      queryClient.setQueryData(userKeys.preferences(), next);
      return { previous };
    },
    onError: (_error, _next, context) => {
      if (context?.previous) queryClient.setQueryData(userKeys.preferences(), context.previous);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(userKeys.preferences(), saved);
    },
  });
}
