import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import {
  clearSession,
  getSession,
  restoreSession,
  setSession,
  TOKEN_STORAGE_KEY,
  USER_STORAGE_KEY,
} from "../../web/lib/session";
import { authUserFor, makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";

describe("session store", () => {
  it("stores token and user under auth_token and auth_user, and clears both", () => {
    const user = authUserFor(makeProfile());
    setSession("tok-1", user);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe("tok-1");
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? "null")).toEqual(user);
    expect(getSession()).toEqual({ token: "tok-1" });

    clearSession();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    expect(getSession()).toEqual({ token: null });
  });

  it("restores the token a previous visit stored, whatever its stored user holds", () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, "tok-2");
    localStorage.setItem(USER_STORAGE_KEY, "{not json");
    expect(restoreSession()).toEqual({ token: "tok-2" });
  });
});

describe("session restore on load", () => {
  it("re-fetches the profile with the stored token and shows the app", async () => {
    const profile = makeProfile();
    storeSession(profile, "tok-restored");
    const { calls } = mockApi(signedInApi(profile));
    renderApp("/app/dashboard");
    expect(await screen.findByText("No sites yet")).toBeInTheDocument();
    const profileCall = calls.find((call) => call.path === "/api/user/profile");
    expect(profileCall?.headers.get("Authorization")).toBe("Bearer tok-restored");
  });

  it("clears the session and goes to /login when the profile answers 401", async () => {
    storeSession(makeProfile());
    mockApi({ "GET /api/user/profile": { status: 401, body: { error: "Not authenticated" } } });
    const { router } = renderApp("/app/dashboard");
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
  });

  it("clears the session when the profile fetch fails for any other reason", async () => {
    storeSession(makeProfile());
    mockApi({ "GET /api/user/profile": { status: 500, body: { error: "Internal error" } } });
    const { router } = renderApp("/app/dashboard");
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(getSession().token).toBeNull();
  });

  it("keeps auth_user in step with the profile the server returns", async () => {
    const stored = makeProfile({ role: "user" });
    storeSession(stored);
    const current = makeProfile({ role: "orgEngineer", companyName: "SunCo Renamed" });
    mockApi(signedInApi(current));
    renderApp("/app/dashboard");
    await screen.findByText("No sites yet");
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? "null")).toMatchObject({
        role: "orgEngineer",
        user_metadata: { companyName: "SunCo Renamed" },
      }),
    );
  });
});

describe("logout", () => {
  it("records the logout, clears token, user and cached data, and returns to /login", async () => {
    const profile = makeProfile();
    storeSession(profile, "tok-out");
    const { calls } = mockApi({
      ...signedInApi(profile),
      "POST /api/auth/logout": { body: { message: "ok" } },
    });
    const { user, router, queryClient } = renderApp("/app/dashboard");
    await screen.findByText("No sites yet");
    expect(queryClient.getQueryData(["user", "profile"])).toEqual(profile);

    await user.click(screen.getByRole("button", { name: "Log out" }));

    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    const logoutCall = calls.find((call) => call.path === "/api/auth/logout");
    expect(logoutCall?.method).toBe("POST");
    expect(logoutCall?.headers.get("Authorization")).toBe("Bearer tok-out");
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    expect(queryClient.getQueryData(["user", "profile"])).toBeUndefined();
    expect(queryClient.getQueryData(["user", "preferences"])).toBeUndefined();
  });
});
