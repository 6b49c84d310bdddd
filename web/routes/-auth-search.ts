import { redirect } from "@tanstack/react-router";
import { getSession } from "../lib/session";

export interface AuthSearch {
  invite?: string;
}

/** `?invite=TOKEN` from an invite link; anything else in the query string is dropped. */
export function validateAuthSearch(search: Record<string, unknown>): AuthSearch {
  const invite = typeof search.invite === "string" ? search.invite.trim() : "";
  return invite ? { invite } : {};
}

/** Signed-in visitors go to the dashboard, unless they came to accept an invite. */
export function redirectWhenSignedIn({ search }: { search: AuthSearch }): void {
  if (getSession().token !== null && !search.invite) throw redirect({ to: "/app/dashboard" });
}
