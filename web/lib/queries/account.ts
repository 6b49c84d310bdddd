import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ChangePasswordBody } from "../../../schema/api/auth";
import { api } from "../api";

/** The account's sign-ins live under ['account'], apart from the profile. */
export const accountKeys = {
  all: ["account"] as const,
  sessions: () => [...accountKeys.all, "sessions"] as const,
};

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: accountKeys.sessions(),
    queryFn: ({ signal }) => api.get("/auth/sessions", { signal }),
    // Settings queries do not retry: a failure shows at once with its own retry button.
    retry: false,
  });

/** Ends every session but this one (DELETE /api/auth/sessions). */
export function useSignOutEverywhereMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete("/auth/sessions"),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

/** Changes the password; the server ends every other session. */
export function useChangePasswordMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => api.post("/auth/password", { json: body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

/** Mails a reset link to the address (POST /api/auth/password-reset); answers alike for any address. */
export function usePasswordResetRequestMutation() {
  return useMutation({
    mutationFn: (email: string) => api.post("/auth/password-reset", { json: { email }, auth: false }),
  });
}

/** Sets the password a reset link was sent for; every session of the account ends. */
export function usePasswordResetConfirmMutation() {
  return useMutation({
    mutationFn: (body: { token: string; password: string }) =>
      api.post("/auth/password-reset/confirm", { json: body, auth: false }),
  });
}
