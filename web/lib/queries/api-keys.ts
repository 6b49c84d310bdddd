import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateApiKeyInput } from "../../../schema/api/api-keys";
import { api } from "../api";

export const apiKeyKeys = { all: ["api-keys"] as const };

export const apiKeysQueryOptions = () =>
  queryOptions({
    queryKey: apiKeyKeys.all,
    queryFn: ({ signal }) => api.get("/api-keys", { signal }),
  });

export function useCreateApiKeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiKeyInput) => api.post("/api-keys", { json: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRevokeApiKeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => api.delete("/api-keys/:id", { param: { id: keyId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
