import type { QueryClient } from "@tanstack/react-query";
import { createMemoryHistory } from "@tanstack/react-router";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { vi } from "vitest";
import type { AuthUser, Profile } from "../../schema/api/auth";
import { defaultPreferences, type Preferences } from "../../schema/api/preferences";
import { App } from "../../web/app";
import { emptySummary } from "../../web/lib/queries/dashboard";
import { createQueryClient } from "../../web/lib/query-client";
import { restoreSession, TOKEN_STORAGE_KEY, USER_STORAGE_KEY } from "../../web/lib/session";
import { createAppRouter } from "../../web/router";

export function makeProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: "user-1",
    email: "olivia@sunco.example",
    fullName: "Olivia Owner",
    role: "orgOwner",
    companyName: "SunCo",
    companyId: "org-1",
    onboardingRequired: false,
    permissions: null,
    emailVerified: true,
    ...overrides,
  };
}

export function authUserFor(profile: Profile): AuthUser {
  return {
    id: profile.id,
    email: profile.email,
    fullName: profile.fullName,
    role: profile.role,
    companyId: profile.companyId,
    user_metadata: { companyName: profile.companyName },
  };
}

/** Puts a session in localStorage the way a previous visit would have left it, and loads it. */
export function storeSession(profile: Profile, token = "token-abc"): void {
  localStorage.setItem(TOKEN_STORAGE_KEY, token);
  localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(authUserFor(profile)));
  restoreSession();
}

export interface FakeResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type Handler = FakeResponse | ((request: { body: unknown; headers: Headers; url: string }) => FakeResponse);

export interface RecordedCall {
  method: string;
  path: string;
  url: string;
  body: unknown;
  headers: Headers;
}

/**
 * Stubs fetch with handlers keyed "METHOD /path" (query string ignored). Unknown requests answer
 * 404 so a screen calling an endpoint the test did not expect shows up as a failure.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? "GET").toUpperCase();
    const path = new URL(url, "http://localhost").pathname;
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path, url, body, headers });
    const handler = handlers[`${method} ${path}`];
    const answer: FakeResponse = handler
      ? typeof handler === "function"
        ? handler({ body, headers, url })
        : handler
      : { status: 404, body: { error: `No handler for ${method} ${path}` } };
    const status = answer.status ?? 200;
    const text = answer.body === undefined ? "" : JSON.stringify(answer.body);
    return new Response(status === 204 ? null : text, {
      status,
      headers: { "Content-Type": "application/json", ...answer.headers },
    });
  });
  vi.stubGlobal("fetch", fetchMock);
  return { calls, fetchMock };
}

/**
 * The handlers every signed-in screen needs, for an organisation without systems yet. The dashboard
 * (where sign-in lands) retries a failed summary a second later, so it is answered here too.
 */
export function signedInApi(profile: Profile, preferences: Preferences = defaultPreferences) {
  return {
    "GET /api/user/profile": { body: profile },
    "GET /api/user/preferences": { body: preferences },
    "GET /api/dashboard/summary": { body: emptySummary() },
  } satisfies Record<string, Handler>;
}

export function testQueryClient(): QueryClient {
  const queryClient = createQueryClient();
  // The production retry policy is tested on its own; here failures should surface at once.
  queryClient.setDefaultOptions({
    ...queryClient.getDefaultOptions(),
    queries: { ...queryClient.getDefaultOptions().queries, retry: false },
  });
  return queryClient;
}

/** Renders the whole application (router, providers, toaster) at a path. */
export function renderApp(path: string, queryClient: QueryClient = testQueryClient()) {
  const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }));
  const user = userEvent.setup();
  const result = render(<App queryClient={queryClient} router={router} />);
  return { ...result, router, queryClient, user };
}

export async function findToast(text: string | RegExp) {
  return screen.findByText(text, {}, { timeout: 3000 });
}
