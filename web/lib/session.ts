import { useSyncExternalStore } from "react";
import type { AuthUser, Profile } from "../../schema/api/auth";

/** localStorage keys of the session. */
export const TOKEN_STORAGE_KEY = "auth_token";
export const USER_STORAGE_KEY = "auth_user";

export function readStoredToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * Whether someone is signed in: the token kept in localStorage (auth_token). The user is kept beside
 * it (auth_user) for other tabs and visits; screens read who it is from the profile the server
 * answers (the profile query), never from storage. The route guards read it on every page, so this
 * module imports no API client (lib/api.ts, which ends the session on a 401).
 */
export interface SessionState {
  token: string | null;
}

function readStoredSession(): SessionState {
  return { token: readStoredToken() };
}

let state: SessionState = readStoredSession();
const listeners = new Set<() => void>();

function emit(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function getSession(): SessionState {
  return state;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

/** Re-reads localStorage: on load, and when another tab signs in or out. */
export function restoreSession(): SessionState {
  emit(readStoredSession());
  return state;
}

export function setSession(token: string, user: AuthUser): void {
  localStorage.setItem(TOKEN_STORAGE_KEY, token);
  localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
  emit({ token });
}

export function clearSession(): void {
  localStorage.removeItem(TOKEN_STORAGE_KEY);
  localStorage.removeItem(USER_STORAGE_KEY);
  if (state.token !== null) emit({ token: null });
}

/** Keeps auth_user in step with the server's profile (role or organisation may have changed). */
export function syncStoredUser(profile: Profile): void {
  if (!state.token) return;
  const user: AuthUser = {
    id: profile.id,
    email: profile.email,
    fullName: profile.fullName,
    role: profile.role,
    companyId: profile.companyId,
    user_metadata: { companyName: profile.companyName },
  };
  const stored = JSON.stringify(user);
  if (localStorage.getItem(USER_STORAGE_KEY) !== stored) localStorage.setItem(USER_STORAGE_KEY, stored);
}

if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key === TOKEN_STORAGE_KEY || event.key === USER_STORAGE_KEY) {
      restoreSession();
    }
  });
}
