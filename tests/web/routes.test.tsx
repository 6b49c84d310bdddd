import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";

describe("routing", () => {
  it("renders the landing page with the five providers and links to demo, login and pricing", async () => {
    mockApi({});
    renderApp("/");
    expect(
      await screen.findByRole("heading", { level: 1, name: "Every solar site you manage, in one live view" }),
    ).toBeInTheDocument();
    for (const provider of ["Meteronline", "Solis", "Fronius", "SMA", "SolaX"]) {
      expect(screen.getByRole("heading", { level: 3, name: provider })).toBeInTheDocument();
    }
    expect(screen.getByRole("link", { name: /Try the Demo/ })).toHaveAttribute("href", "/demo");
    expect(screen.getAllByRole("link", { name: "Sign In" })[0]).toHaveAttribute("href", "/login");
    expect(screen.getAllByRole("link", { name: "View Pricing" })[0]).toHaveAttribute("href", "/pricing");
  });

  it("shows the three plans with their prices, Professional marked Most Popular", async () => {
    mockApi({});
    renderApp("/pricing");
    const professional = await screen.findByRole("heading", { level: 2, name: "Professional" });
    expect(professional.parentElement).toHaveTextContent("Most Popular");
    expect(professional.parentElement).toHaveTextContent("£79");
    expect(screen.getByRole("heading", { level: 2, name: "Starter" }).parentElement).toHaveTextContent("£29");
    expect(screen.getByRole("heading", { level: 2, name: "Enterprise" }).parentElement).toHaveTextContent(
      "£199",
    );
    expect(screen.getByRole("heading", { level: 2, name: "Starter" }).parentElement).not.toHaveTextContent(
      "Most Popular",
    );
    expect(screen.getAllByText("14-day free trial · No credit card required").length).toBeGreaterThan(0);
  });

  it("shows the 404 card for an unknown path", async () => {
    mockApi({});
    renderApp("/no-such-page");
    expect(await screen.findByRole("heading", { name: "Page Not Found" })).toBeInTheDocument();
  });

  it("redirects an unauthenticated visitor of /app/dashboard to /login", async () => {
    const { calls } = mockApi({});
    const { router } = renderApp("/app/dashboard");
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(await screen.findByRole("tab", { name: "Sign In" })).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("shows the dashboard empty state at /app for a signed-in member", async () => {
    const profile = makeProfile();
    storeSession(profile);
    mockApi(signedInApi(profile));
    renderApp("/app");
    expect(await screen.findByText("No sites yet")).toBeInTheDocument();
    expect(screen.getByText("Add your first solar site to start monitoring")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
  });

  it("answers an analytics site id with Site Not Found and a way back", async () => {
    const profile = makeProfile();
    storeSession(profile);
    mockApi(signedInApi(profile));
    renderApp("/app/analytics/site-42");
    expect(await screen.findByRole("heading", { name: "Site Not Found" })).toBeInTheDocument();
    expect(screen.getAllByRole("link", { name: "Back to Analytics" })[0]).toHaveAttribute(
      "href",
      "/app/analytics",
    );
  });

  it("shows site management totals at zero with the create-site call to action", async () => {
    const profile = makeProfile();
    storeSession(profile);
    mockApi({ ...signedInApi(profile), "GET /api/sites/enhanced": { body: [] } });
    renderApp("/app/site-management");
    expect(await screen.findByText("No sites created yet")).toBeInTheDocument();
    expect(screen.getByText("Total Capacity (kW)").parentElement).toHaveTextContent("0 kW");
    expect(screen.getByRole("link", { name: "Create Your First Site" })).toHaveAttribute(
      "href",
      "/app/create-site",
    );
  });

  it("shows the 404 card inside the app frame for an unknown /app path", async () => {
    const profile = makeProfile();
    storeSession(profile);
    mockApi(signedInApi(profile));
    renderApp("/app/nowhere");
    expect(await screen.findByRole("heading", { name: "Page Not Found" })).toBeInTheDocument();
  });
});
