import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { TOKEN_STORAGE_KEY, USER_STORAGE_KEY } from "../../web/lib/session";
import {
  authUserFor,
  findToast,
  makeProfile,
  mockApi,
  renderApp,
  signedInApi,
  storeSession,
} from "./helpers";

const profile = makeProfile();
const authResponse = {
  token: "tok-new",
  user: authUserFor(profile),
  isFirstUser: true,
  company: { name: "SunCo" },
};

describe("login page", () => {
  it("opens on Sign In and switches to the Sign Up form", async () => {
    mockApi({});
    const { user } = renderApp("/login");
    const signInTab = await screen.findByRole("tab", { name: "Sign In" });
    expect(signInTab).toHaveAttribute("aria-selected", "true");
    expect(screen.getByLabelText("Email")).toBeInTheDocument();
    expect(screen.getByLabelText("Password")).toBeInTheDocument();
    // A browser test finds fields by label substring, so nothing else may mention them.
    expect(screen.getAllByLabelText(/password/i)).toHaveLength(1);
    expect(screen.getAllByLabelText(/email/i)).toHaveLength(1);
    expect(screen.queryByLabelText("Full Name")).not.toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Sign Up" }));
    expect(screen.getByRole("tab", { name: "Sign Up" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByLabelText("Full Name")).toBeInTheDocument();
    expect(screen.getByLabelText("Company Name")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign Up" })).toBeInTheDocument();
  });

  it("shows the Sign Up tab at /signup", async () => {
    mockApi({});
    renderApp("/signup");
    expect(await screen.findByRole("tab", { name: "Sign Up" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByLabelText("Company Name")).toBeInTheDocument();
  });

  it("prefills the invite token, opens Sign Up and hides the company name", async () => {
    mockApi({});
    renderApp("/login?invite=INV-123");
    expect(await screen.findByRole("tab", { name: "Sign Up" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByLabelText("Invitation Token")).toHaveValue("INV-123");
    expect(screen.queryByLabelText("Company Name")).not.toBeInTheDocument();
  });

  it("registers through an invite without a company name and enters the app", async () => {
    const { calls } = mockApi({
      "POST /api/auth/register": { status: 201, body: authResponse },
      ...signedInApi(profile),
    });
    const { user, router } = renderApp("/login?invite=INV-123");
    await user.type(await screen.findByLabelText("Email"), "new@sunco.example");
    await user.type(screen.getByLabelText("Password"), "long-enough-password");
    await user.type(screen.getByLabelText("Full Name"), "Nina New");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));

    await waitFor(() => expect(router.state.location.pathname).toBe("/app/dashboard"));
    expect(calls.find((call) => call.path === "/api/auth/register")?.body).toEqual({
      email: "new@sunco.example",
      password: "long-enough-password",
      fullName: "Nina New",
      inviteToken: "INV-123",
    });
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe("tok-new");
  });

  it("signs in, stores token and user, and goes to the dashboard", async () => {
    const { calls } = mockApi({ "POST /api/auth/login": { body: authResponse }, ...signedInApi(profile) });
    const { user, router } = renderApp("/login");
    await user.type(await screen.findByLabelText("Email"), "olivia@sunco.example");
    await user.type(screen.getByLabelText("Password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Sign In" }));

    await waitFor(() => expect(router.state.location.pathname).toBe("/app/dashboard"));
    expect(calls[0]?.body).toEqual({ email: "olivia@sunco.example", password: "correct horse" });
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe("tok-new");
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? "null")).toEqual(authResponse.user);
    expect(await screen.findByText("No sites yet")).toBeInTheDocument();
  });

  it("toasts Login failed with the server's error", async () => {
    mockApi({
      "POST /api/auth/login": { status: 401, body: { error: "Invalid credentials", code: "invalid_login" } },
    });
    const { user, router } = renderApp("/login");
    await user.type(await screen.findByLabelText("Email"), "olivia@sunco.example");
    await user.type(screen.getByLabelText("Password"), "wrong");
    await user.click(screen.getByRole("button", { name: "Sign In" }));

    const title = await findToast("Login failed");
    const toast = title.closest("li");
    expect(toast && within(toast).getByText("The email or password is not correct.")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });

  it("shows the throttling message on 429", async () => {
    mockApi({
      "POST /api/auth/login": {
        status: 429,
        body: {
          error: "Too many login attempts. Try again in 60 seconds.",
          code: "rate_limited",
          details: { retryAfterSeconds: 60 },
        },
        headers: { "Retry-After": "60" },
      },
    });
    const { user } = renderApp("/login");
    await user.type(await screen.findByLabelText("Email"), "olivia@sunco.example");
    await user.type(screen.getByLabelText("Password"), "wrong");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    expect(await findToast("Too many attempts. Try again in 60 s.")).toBeInTheDocument();
  });

  it("toasts Registration failed with the server's message", async () => {
    mockApi({
      "POST /api/auth/register": {
        status: 409,
        body: {
          error: "An account with this email already exists",
          code: "conflict",
          details: { reason: "email_taken" },
        },
      },
    });
    const { user } = renderApp("/signup");
    await user.type(await screen.findByLabelText("Email"), "olivia@sunco.example");
    await user.type(screen.getByLabelText("Password"), "long-enough-password");
    await user.type(screen.getByLabelText("Full Name"), "Olivia");
    await user.type(screen.getByLabelText("Company Name"), "SunCo");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    expect(await findToast("Registration failed")).toBeInTheDocument();
    expect(screen.getByText("An account with this email already exists.")).toBeInTheDocument();
  });

  it("sends a signed-in visitor to the dashboard", async () => {
    storeSession(profile);
    mockApi(signedInApi(profile));
    const { router } = renderApp("/login");
    await waitFor(() => expect(router.state.location.pathname).toBe("/app/dashboard"));
  });

  it("lets a signed-in user without organisation accept an invite link", async () => {
    const orphan = makeProfile({
      companyId: null,
      companyName: null,
      onboardingRequired: true,
      role: "user",
    });
    storeSession(orphan);
    const joined = makeProfile({ role: "user", companyName: "SunCo" });
    let accepted = false;
    const { calls } = mockApi({
      "GET /api/user/profile": () => ({ body: accepted ? joined : orphan }),
      "GET /api/user/preferences": { body: { ...joined, language: "en" } },
      "POST /api/auth/accept-invite": () => {
        accepted = true;
        return { body: joined };
      },
    });
    const { user, router } = renderApp("/login?invite=INV-9");
    await user.click(await screen.findByRole("button", { name: "Accept Invitation" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/app/dashboard"));
    expect(calls.find((call) => call.path === "/api/auth/accept-invite")?.body).toEqual({
      inviteToken: "INV-9",
    });
    expect(await screen.findByText("No sites yet")).toBeInTheDocument();
  });
});
