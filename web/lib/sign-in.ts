import type { AuthResponse } from "../../schema/api/auth";
import { api } from "./api";
import { clearSession, getSession, setSession } from "./session";

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

/*
 * Signing in and registering start a session, logging out ends it. They are plain calls, not query mutations: the sign-in
 * page loads no query code (its JavaScript budget). A new session's token empties the query cache
 * (lib/query-client.ts), so nothing cached for a previous user shows.
 */

export async function signIn(input: LoginInput): Promise<AuthResponse> {
  const response = await api.post("/auth/login", { json: input, auth: false });
  setSession(response.token, response.user);
  return response;
}

export async function register(input: RegisterInput): Promise<AuthResponse> {
  const response = await api.post("/auth/register", { json: input, auth: false });
  setSession(response.token, response.user);
  return response;
}

/** Records the logout server-side (best effort, the token is read before it is cleared), then forgets it. */
export function logout(): void {
  if (getSession().token) {
    api.post("/auth/logout").catch(() => undefined);
  }
  clearSession();
}
