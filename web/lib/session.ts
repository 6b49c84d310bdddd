import { useSyncExternalStore } from "react";
import { type AuthUser, authUserSchema, type Profile } from "../../schema/api/auth";
import { api, readStoredToken, setUnauthorizedHandler, TOKEN_STORAGE_KEY, USER_STORAGE_KEY } from "./api";
import { disconnectLive } from "./live";

/** Who is signed in, as kept in localStorage (auth_token, auth_user). */
export interface SessionState {
  token: string | null;
  user: AuthUser | null;
}

function readStoredUser(): AuthUser | null {
  try {
    const raw = localStorage.getItem(USER_STORAGE_KEY);
    if (!raw) return null;
    const parsed = authUserSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function readStoredSession(): SessionState {
  const token = readStoredToken();
  return { token, user: token ? readStoredUser() : null };
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
  emit({ token, user });
}

export function clearSession(): void {
  localStorage.removeItem(TOKEN_STORAGE_KEY);
  localStorage.removeItem(USER_STORAGE_KEY);
  disconnectLive();
  if (state.token !== null || state.user !== null) emit({ token: null, user: null });
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
  if (JSON.stringify(user) === JSON.stringify(state.user)) return;
  localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
  emit({ token: state.token, user });
}

/** Records the logout server-side (best effort, the token is read before it is cleared), then forgets it. */
export function logout(): void {
  if (state.token) {
    api.post("/auth/logout").catch(() => undefined);
  }
  clearSession();
}

// An authenticated call answered 401: the token is no longer valid.
setUnauthorizedHandler(clearSession);

if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key === TOKEN_STORAGE_KEY || event.key === USER_STORAGE_KEY) {
      restoreSession();
    }
  });
}
