import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import { syncStoredUser } from "../session";
import { userKeys } from "./user";

/** Onboarding: a signed-in user without organisation creates one (POST /api/auth/signup). */
export function useCompleteOnboardingMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (companyName: string) => api.post("/auth/signup", { json: { companyName } }),
    // Awaited so the refreshed profile (onboardingRequired false) is in place before navigating.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** A signed-in user without organisation joins one through an invite link. */
export function useAcceptInviteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inviteToken: string) => api.post("/auth/accept-invite", { json: { inviteToken } }),
    onSuccess: async (profile) => {
      queryClient.setQueryData(userKeys.profile(), profile);
      syncStoredUser(profile);
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}
