import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Role } from "../../../schema/roles";
import { api } from "../api";

export const memberKeys = {
  users: ["users"] as const,
  invites: ["invites"] as const,
};

export const usersQueryOptions = () =>
  queryOptions({
    queryKey: memberKeys.users,
    queryFn: ({ signal }) => api.get("/users", { signal }),
    retry: false,
  });

export const invitesQueryOptions = () =>
  queryOptions({
    queryKey: memberKeys.invites,
    queryFn: ({ signal }) => api.get("/invites", { signal }),
    retry: false,
  });

export function useInviteUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; role: Role }) => api.post("/users/invite", { json: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.invites }),
  });
}

export function useChangeRoleMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      api.patch("/users/:id/role", { param: { id: userId }, json: { role } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.users }),
  });
}

export function useRemoveUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.delete("/users/:id", { param: { id: userId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.users }),
  });
}

export function useRevokeInviteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inviteId: string) => api.delete("/invites/:id", { param: { id: inviteId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.invites }),
  });
}
