import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AuthResponse, Profile, SignupResponse } from "../../../schema/api/auth";
import { api } from "../api";
import { setSession, syncStoredUser } from "../session";
import { userKeys } from "./user";

export interface LoginInput {
  email: string;
  password: string;
}

export interface RegisterInput {
  email: string;
  password: string;
  fullName: string;
  companyName?: string;
  inviteToken?: string;
}

/** Starts a fresh session: nothing cached for a previous user may leak into it. */
function useStartSession() {
  const queryClient = useQueryClient();
  return (response: AuthResponse) => {
    queryClient.clear();
    setSession(response.token, response.user);
  };
}

export function useLoginMutation() {
  const startSession = useStartSession();
  return useMutation({
    mutationFn: (input: LoginInput) => api.post<AuthResponse>("/auth/login", input, { auth: false }),
    onSuccess: startSession,
  });
}

export function useRegisterMutation() {
  const startSession = useStartSession();
  return useMutation({
    mutationFn: (input: RegisterInput) => api.post<AuthResponse>("/auth/register", input, { auth: false }),
    onSuccess: startSession,
  });
}

/** Onboarding: a signed-in user without organisation creates one (POST /api/auth/signup). */
export function useCompleteOnboardingMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (companyName: string) => api.post<SignupResponse>("/auth/signup", { companyName }),
    // Awaited so the refreshed profile (onboardingRequired false) is in place before navigating.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** A signed-in user without organisation joins one through an invite link. */
export function useAcceptInviteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inviteToken: string) => api.post<Profile>("/auth/accept-invite", { inviteToken }),
    onSuccess: async (profile) => {
      queryClient.setQueryData(userKeys.profile(), profile);
      syncStoredUser(profile);
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}
