import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { findToast, makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";

const newcomer = makeProfile({
  email: "nina@newco.example",
  role: "user",
  companyId: null,
  companyName: null,
  onboardingRequired: true,
});

describe("onboarding", () => {
  it("replaces the app screen with read-only email and a required company name", async () => {
    storeSession(newcomer);
    mockApi(signedInApi(newcomer));
    renderApp("/app/dashboard");
    const email = await screen.findByLabelText("Email");
    expect(email).toHaveValue("nina@newco.example");
    expect(email).toHaveAttribute("readonly");
    expect(screen.getByLabelText("Company Name")).toBeRequired();
    expect(screen.queryByText("No sites yet")).not.toBeInTheDocument();
    expect(screen.queryByRole("navigation", { name: "Main navigation" })).not.toBeInTheDocument();
  });

  it("keeps Complete Setup disabled while the company name is blank after trimming", async () => {
    storeSession(newcomer);
    mockApi(signedInApi(newcomer));
    const { user } = renderApp("/app/dashboard");
    const submit = await screen.findByRole("button", { name: "Complete Setup" });
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText("Company Name"), "   ");
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText("Company Name"), "NewCo");
    expect(submit).toBeEnabled();
  });

  it("refuses a blank submission with the Error toast and sends nothing", async () => {
    storeSession(newcomer);
    const { calls } = mockApi(signedInApi(newcomer));
    const { user } = renderApp("/app/dashboard");
    await user.type(await screen.findByLabelText("Company Name"), "   ");
    const form = screen.getByRole("button", { name: "Complete Setup" }).closest("form");
    if (!form) throw new Error("the onboarding form is missing");
    fireEvent.submit(form);
    expect(await findToast("Error")).toBeInTheDocument();
    expect(screen.getByText("Please enter your company name")).toBeInTheDocument();
    expect(calls.some((call) => call.path === "/api/auth/signup")).toBe(false);
  });

  it("creates the organisation with the trimmed name, refreshes the profile and opens the dashboard", async () => {
    storeSession(newcomer);
    let onboarded = false;
    const { calls } = mockApi({
      "GET /api/user/profile": () => ({
        body: onboarded
          ? {
              ...newcomer,
              role: "orgOwner",
              companyName: "NewCo",
              companyId: "org-9",
              onboardingRequired: false,
            }
          : newcomer,
      }),
      "GET /api/user/preferences": signedInApi(newcomer)["GET /api/user/preferences"],
      "POST /api/auth/signup": () => {
        onboarded = true;
        return { status: 201, body: { isFirstUser: true, company: { name: "NewCo" } } };
      },
    });
    const { user, router } = renderApp("/app");
    await user.type(await screen.findByLabelText("Company Name"), "  NewCo  ");
    await user.click(screen.getByRole("button", { name: "Complete Setup" }));

    expect(await screen.findByText("No sites yet")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/app/dashboard"));
    expect(calls.find((call) => call.path === "/api/auth/signup")?.body).toEqual({ companyName: "NewCo" });
    expect(screen.getByText("NewCo")).toBeInTheDocument();
  });

  it("toasts Signup failed with the server's message when creation fails", async () => {
    storeSession(newcomer);
    mockApi({
      ...signedInApi(newcomer),
      "POST /api/auth/signup": {
        status: 409,
        body: {
          error: "You already belong to an organisation",
          code: "conflict",
          details: { reason: "already_in_organisation" },
        },
      },
    });
    const { user } = renderApp("/app/dashboard");
    await user.type(await screen.findByLabelText("Company Name"), "NewCo");
    await user.click(screen.getByRole("button", { name: "Complete Setup" }));
    expect(await findToast("Signup failed")).toBeInTheDocument();
    expect(screen.getByText("You already belong to an organisation.")).toBeInTheDocument();
  });

  it("never asks a superAdmin (who has no organisation) to onboard", async () => {
    const admin = makeProfile({
      role: "superAdmin",
      companyId: null,
      companyName: null,
      onboardingRequired: true,
    });
    storeSession(admin);
    mockApi(signedInApi(admin));
    renderApp("/app/dashboard");
    expect(await screen.findByText("No sites yet")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Complete Setup" })).not.toBeInTheDocument();
  });
});
