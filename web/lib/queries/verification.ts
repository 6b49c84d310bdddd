import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import { userKeys } from "./user";

/** "Send again": a new verification link to the signed-in account's address (one a minute, five a day). */
export function useResendVerificationMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post("/auth/verify-email/resend"),
    // Nothing sent means the address was verified meanwhile (another tab): the profile drops the banner.
    onSuccess: async (answer) => {
      if (!answer.sent) await queryClient.invalidateQueries({ queryKey: userKeys.profile() });
    },
  });
}
