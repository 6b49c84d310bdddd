import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { getSession } from "../../web/lib/session";
import {
  authUserFor,
  findToast,
  makeProfile,
  mockApi,
  renderApp,
  signedInApi,
  storeSession,
} from "./helpers";

const unverified = makeProfile({ email: "una@newco.example", emailVerified: false });

describe("the verification banner", () => {
  it("asks an account whose address was never verified to follow the link, and sends it again", async () => {
    storeSession(unverified);
    const { calls } = mockApi({
      ...signedInApi(unverified),
      "POST /api/auth/verify-email/resend": {
        body: { sent: true, message: "A new verification link is on its way to una@newco.example" },
      },
    });
    const { user } = renderApp("/app/dashboard");
    const banner = await screen.findByRole("status", { name: /Confirm your e-mail address/ });
    expect(banner).toHaveTextContent("We sent a link to una@newco.example");
    expect(banner).toHaveTextContent("cannot create API keys or invite colleagues");
    await user.click(within(banner).getByRole("button", { name: "Send again" }));
    expect(await findToast("A new link is on its way to una@newco.example.")).toBeInTheDocument();
    expect(calls.filter((call) => call.path === "/api/auth/verify-email/resend")).toHaveLength(1);
  });

  it("shows the wait when sending again is throttled", async () => {
    storeSession(unverified);
    mockApi({
      ...signedInApi(unverified),
      "POST /api/auth/verify-email/resend": {
        status: 429,
        headers: { "Retry-After": "42" },
        body: {
          error: "A verification link was sent a moment ago. Try again later.",
          code: "rate_limited",
          details: { retryAfterSeconds: 42 },
        },
      },
    });
    const { user } = renderApp("/app/dashboard");
    const banner = await screen.findByRole("status", { name: /Confirm your e-mail address/ });
    await user.click(within(banner).getByRole("button", { name: "Send again" }));
    expect(await findToast("The link was not sent")).toBeInTheDocument();
    expect(await screen.findByText(/42/)).toBeInTheDocument();
  });

  it("is not shown once the address is verified", async () => {
    const verified = makeProfile();
    storeSession(verified);
    mockApi(signedInApi(verified));
    renderApp("/app/dashboard");
    expect(await screen.findByText("No sites yet")).toBeInTheDocument();
    expect(screen.queryByText("Confirm your e-mail address")).not.toBeInTheDocument();
  });

  it("says in Settings → Account whether the address is confirmed", async () => {
    storeSession(unverified);
    mockApi({ ...signedInApi(unverified), "GET /api/auth/sessions": { body: [] } });
    const { user } = renderApp("/app/dashboard");
    await user.click(await screen.findByRole("button", { name: "Settings" }));
    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByText("Not confirmed yet")).toBeInTheDocument();
  });
});

describe("the /verify-email page", () => {
  it("follows the link, signs in and opens the dashboard", async () => {
    const verified = makeProfile({ email: "una@newco.example" });
    const { calls } = mockApi({
      ...signedInApi(verified),
      "POST /api/auth/verify-email": {
        body: {
          token: "token-new",
          user: authUserFor(verified),
          isFirstUser: false,
          company: { name: "SunCo" },
        },
      },
    });
    const { router } = renderApp("/verify-email?token=link-token");
    await waitFor(() => expect(router.state.location.pathname).toBe("/app/dashboard"));
    expect(await screen.findByText("No sites yet")).toBeInTheDocument();
    const verifyCalls = calls.filter((call) => call.path === "/api/auth/verify-email");
    expect(verifyCalls.map((call) => call.body)).toEqual([{ token: "link-token" }]);
    expect(getSession().token).toBe("token-new");
  });

  it("says so when the link is invalid, expired or used", async () => {
    mockApi({
      "POST /api/auth/verify-email": {
        status: 400,
        body: {
          error: "This verification link is invalid, has expired or has already been used",
          code: "validation_failed",
          details: [{ path: ["token"], message: "invalid" }],
        },
      },
    });
    renderApp("/verify-email?token=used-token");
    expect(await screen.findByText("This link does not work")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to sign in" })).toHaveAttribute("href", "/login");
  });

  it("asks for the link when it has no token", async () => {
    renderApp("/verify-email");
    expect(
      await screen.findByText("This page needs the link from the confirmation e-mail."),
    ).toBeInTheDocument();
  });
});

describe("an invite link opened by an account never verified", () => {
  it("warns that accepting moves the account and deletes its own organisation", async () => {
    const squatted = makeProfile({ companyName: "Squat Co", emailVerified: false });
    storeSession(squatted);
    mockApi(signedInApi(squatted));
    renderApp("/login?invite=INV-7");
    expect(await screen.findByRole("button", { name: "Accept Invitation" })).toBeInTheDocument();
    expect(await screen.findByRole("note")).toHaveTextContent(
      "accepting moves this account into the inviting organisation, and Squat Co, which only you belong to, is deleted",
    );
  });
});
