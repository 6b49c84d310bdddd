import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";

export const notificationKeys = { all: ["notifications"] as const };

export const notificationsQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.all,
    queryFn: ({ signal }) => api.get("/notifications", { signal }),
    // New alerts reach the socket as alerts_changed (which refreshes this); the interval covers syncs.
    refetchInterval: 120_000,
  });

/** The signed-in member's unread count for the bell (undefined while unknown). */
export function useUnreadNotificationCount(enabled = true): number | undefined {
  return useQuery({ ...notificationsQueryOptions(), enabled, select: (answer) => answer.unread }).data;
}

/** Marks the listed notifications read, or all without ids. */
export function useMarkNotificationsReadMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) => api.post("/notifications/read", { json: ids ? { ids } : {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
