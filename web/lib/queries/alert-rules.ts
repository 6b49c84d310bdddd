import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { AlertRulesPatch } from "../../../schema/api/alert-rules";
import { api } from "../api";

export const alertRuleKeys = { all: ["alert-rules"] as const };

export const alertRulesQueryOptions = () =>
  queryOptions({
    queryKey: alertRuleKeys.all,
    queryFn: ({ signal }) => api.get("/alert-rules", { signal }),
  });

export function useUpdateAlertRulesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: AlertRulesPatch) => api.patch("/alert-rules", { json: patch }),
    onSuccess: (rules) => queryClient.setQueryData(alertRuleKeys.all, rules),
  });
}
