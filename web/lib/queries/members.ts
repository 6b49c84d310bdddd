import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Invite, InviteCreated, Member } from "../../../schema/api/members";
import type { Role } from "../../../schema/roles";
import { api } from "../api";

export const memberKeys = {
  users: ["users"] as const,
  invites: ["invites"] as const,
};

export const usersQueryOptions = () =>
  queryOptions({
    queryKey: memberKeys.users,
    queryFn: ({ signal }) => api.get<Member[]>("/users", { signal }),
    retry: false,
  });

export const invitesQueryOptions = () =>
  queryOptions({
    queryKey: memberKeys.invites,
    queryFn: ({ signal }) => api.get<Invite[]>("/invites", { signal }),
    retry: false,
  });

export function useInviteUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; role: Role }) => api.post<InviteCreated>("/users/invite", input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.invites }),
  });
}

export function useChangeRoleMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      api.patch<Member>(`/users/${encodeURIComponent(userId)}/role`, { role }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.users }),
  });
}

export function useRemoveUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.delete<{ message: string }>(`/users/${encodeURIComponent(userId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.users }),
  });
}

export function useRevokeInviteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inviteId: string) =>
      api.delete<{ message: string }>(`/invites/${encodeURIComponent(inviteId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.invites }),
  });
}
