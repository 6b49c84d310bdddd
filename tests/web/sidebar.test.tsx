import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Role } from "../../schema/roles";
import { makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";

async function renderAs(role: Role, path = "/app/dashboard", extra: Parameters<typeof mockApi>[0] = {}) {
  const profile = makeProfile({ role, email: "sam.sample@sunco.example" });
  storeSession(profile);
  mockApi({ ...signedInApi(profile), ...extra });
  const rendered = renderApp(path);
  const nav = await screen.findByRole("navigation", { name: "Main navigation" });
  return { ...rendered, nav };
}

describe("sidebar", () => {
  it.each<[Role, boolean]>([
    ["user", false],
    ["orgEngineer", true],
    ["orgOwner", true],
    ["superAdmin", true],
  ])("for %s shows the Administration section: %s", async (role, visible) => {
    const { nav } = await renderAs(role);
    expect(within(nav).queryByText("Administration") !== null).toBe(visible);
    expect(within(nav).queryByRole("link", { name: "User Management" }) !== null).toBe(visible);
    expect(within(nav).queryByRole("link", { name: "Audit Logs" }) !== null).toBe(visible);
  });

  it("lists the seven main screens for every role", async () => {
    const { nav } = await renderAs("user");
    const labels = ["Dashboard", "Sites", "Site Management", "Portfolios", "Analytics", "Weather", "Alerts"];
    for (const label of labels) expect(within(nav).getByRole("link", { name: label })).toBeInTheDocument();
  });

  it("shows the email, the role label and initials from the email's local part", async () => {
    await renderAs("orgEngineer");
    expect(screen.getByText("sam.sample@sunco.example")).toBeInTheDocument();
    expect(screen.getByText("Organization Engineer")).toBeInTheDocument();
    expect(screen.getByText("SA")).toBeInTheDocument();
  });

  it("marks the current screen", async () => {
    const { nav } = await renderAs("user", "/app/weather", {
      "GET /api/sites": { body: [] },
      "GET /api/available-systems": { body: [] },
    });
    expect(within(nav).getByRole("link", { name: "Weather" })).toHaveAttribute("aria-current", "page");
    expect(within(nav).getByRole("link", { name: "Dashboard" })).not.toHaveAttribute("aria-current");
    expect(await screen.findByText("No Weather Data")).toBeInTheDocument();
  });

  it("shows the page title and company name in the top bar", async () => {
    await renderAs("user", "/app/alerts");
    const banner = screen.getByRole("banner");
    expect(within(banner).getByText("System Alerts")).toBeInTheDocument();
    expect(within(banner).getByText("SunCo")).toBeInTheDocument();
    expect(within(banner).getByRole("button", { name: "Notifications" })).toBeInTheDocument();
  });
});
