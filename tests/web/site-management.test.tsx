import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Role } from "../../schema/roles";
import { findToast, makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";
import { makeAvailableSystem, makeEnhancedSite, makeSiteSystem } from "./sites-fixtures";

const sites = [
  makeEnhancedSite(),
  makeEnhancedSite({
    id: "site-2",
    name: "Depot",
    status: "fault",
    capacity: 30,
    totalCapacity: 30,
    capacitySource: "manual",
    tiltDeg: 35,
    systemCount: 1,
    systems: [makeSiteSystem({ id: "system-3", systemName: "Depot Roof", provider: "sma", status: "alarm" })],
  }),
];

function openManagement(role: Role = "orgOwner", extra: Parameters<typeof mockApi>[0] = {}) {
  const profile = makeProfile({ role });
  storeSession(profile);
  const api = mockApi({ ...signedInApi(profile), "GET /api/sites/enhanced": { body: sites }, ...extra });
  return { ...api, ...renderApp("/app/site-management") };
}

const siteGroup = (name: string) => screen.findByRole("group", { name });

describe("Site Management", () => {
  it("totals sites, systems and capacity", async () => {
    openManagement();
    await siteGroup("Warehouse Roof");
    expect(screen.getByText("Total Sites").parentElement).toHaveTextContent("2");
    expect(screen.getByText("Total Systems").parentElement).toHaveTextContent("3");
    expect(screen.getByText("Total Capacity (kW)").parentElement).toHaveTextContent("42.5 kW");
    expect(screen.getByRole("link", { name: "Create New Site" })).toHaveAttribute("href", "/app/create-site");
  });

  it("expands a site to its systems with their values and data time", async () => {
    const { user } = openManagement();
    const warehouse = await siteGroup("Warehouse Roof");
    const toggle = within(warehouse).getByRole("button", { expanded: false });
    expect(within(warehouse).queryByRole("table")).not.toBeInTheDocument();
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const table = within(warehouse).getByRole("table", { name: "Monitoring systems of Warehouse Roof" });
    const east = within(table).getByRole("row", { name: /Roof East/ });
    expect(east).toHaveTextContent("Solis");
    expect(east).toHaveTextContent("6.5 kW");
    expect(east).toHaveTextContent("2.1 kW");
    expect(east).toHaveTextContent("9.2 kWh");
    expect(east).toHaveTextContent("Online");
    expect(east).toHaveTextContent("1 Jun 2026");
    // Stored values show at once; the live column waits for this session's first live message.
    expect(within(east).getByText("Waiting for real-time data...")).toBeInTheDocument();
  });

  it("offers sites for the plants that have a place and creates them in one call", async () => {
    const placed = makeAvailableSystem({ id: "plant-1", latitude: 52.1, longitude: 4.3 });
    const addressOnly = makeAvailableSystem({
      id: "plant-2",
      latitude: null,
      longitude: null,
      location: "Milano",
    });
    const nowhere = makeAvailableSystem({ id: "plant-3", latitude: null, longitude: null, location: null });
    const { user, calls } = openManagement("orgOwner", {
      "GET /api/available-systems": { body: [placed, addressOnly, nowhere] },
      "POST /api/sites/from-systems": {
        status: 201,
        body: { created: 2, sites: [makeEnhancedSite({ locationSource: "vendor" })], skipped: [] },
      },
    });
    const button = await screen.findByRole("button", { name: "Create sites for 2 plants" });
    await user.click(button);
    expect(await findToast("2 sites created")).toBeInTheDocument();
    const post = calls.find((call) => call.method === "POST" && call.path === "/api/sites/from-systems");
    expect(post?.body).toEqual({ systemIds: ["plant-1", "plant-2"] });
  });

  it("says one plant and one site in the singular", async () => {
    const placed = makeAvailableSystem({ id: "plant-1", latitude: 52.1, longitude: 4.3 });
    const { user } = openManagement("orgOwner", {
      "GET /api/available-systems": { body: [placed] },
      "POST /api/sites/from-systems": {
        status: 201,
        body: { created: 1, sites: [makeEnhancedSite({ locationSource: "vendor" })], skipped: [] },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Create a site for 1 plant" }));
    expect(await findToast("1 site created")).toBeInTheDocument();
  });

  it("shows where a site's location came from", async () => {
    const { user } = openManagement();
    const warehouse = await siteGroup("Warehouse Roof");
    await user.click(within(warehouse).getByRole("button", { expanded: false }));
    expect(within(warehouse).getByTestId("location-source")).toHaveTextContent("a verified address");
  });

  it("deletes a site only after confirmation", async () => {
    const confirm = vi.spyOn(window, "confirm").mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { user, calls } = openManagement("orgOwner", {
      "DELETE /api/sites/site-2": {
        body: { message: "Site Depot deleted", releasedSystemIds: ["system-3"] },
      },
    });
    const depot = await siteGroup("Depot");
    await user.click(within(depot).getByRole("button", { expanded: false }));
    await user.click(within(depot).getByRole("button", { name: "Delete" }));
    expect(confirm).toHaveBeenCalledWith(
      "Delete the site Depot? Its monitoring systems (1) return to the available list.",
    );
    expect(calls.some((call) => call.method === "DELETE")).toBe(false);

    await user.click(within(depot).getByRole("button", { name: "Delete" }));
    expect(await findToast("Site deleted")).toBeInTheDocument();
    expect(calls.filter((call) => call.method === "DELETE").map((call) => call.path)).toEqual([
      "/api/sites/site-2",
    ]);
    // The list and the available systems are read again.
    await waitFor(() =>
      expect(calls.filter((call) => call.path === "/api/sites/enhanced").length).toBeGreaterThan(1),
    );
  });

  it("edits the name and the array settings, sending only what changed", async () => {
    const { user, calls } = openManagement("orgOwner", {
      "PATCH /api/sites/site-2": ({ body }) => ({ body: { ...sites[1], ...(body as object) } }),
    });
    const depot = await siteGroup("Depot");
    await user.click(within(depot).getByRole("button", { expanded: false }));
    expect(within(depot).getByText("Capacity", { selector: "dt" }).parentElement).toHaveTextContent(
      "30 kW (set for the site)",
    );
    await user.click(within(depot).getByRole("button", { name: "Edit" }));
    const form = within(depot).getByRole("form", { name: "Edit Depot" });
    expect(within(form).getByLabelText("Capacity override (kW)")).toHaveValue(30);
    await user.clear(within(form).getByLabelText("Capacity override (kW)"));
    await user.type(within(form).getByLabelText("Azimuth (°)"), "170");
    await user.type(within(form).getByLabelText("AC limit (kW)"), "25.5");
    await user.click(within(form).getByRole("button", { name: "Save Changes" }));

    expect(await findToast("Site updated")).toBeInTheDocument();
    expect(calls.find((call) => call.method === "PATCH")?.body).toEqual({
      capacity: null,
      azimuthDeg: "170",
      acLimitKw: "25.5",
    });
  });

  it("says Deletion failed with the server's error", async () => {
    vi.spyOn(window, "confirm").mockReturnValue(true);
    const { user } = openManagement("orgOwner", {
      "DELETE /api/sites/site-1": {
        status: 403,
        body: {
          error: "You do not have permission to do this",
          code: "forbidden",
          details: { reason: "role" },
        },
      },
    });
    const warehouse = await siteGroup("Warehouse Roof");
    await user.click(within(warehouse).getByRole("button", { expanded: false }));
    await user.click(within(warehouse).getByRole("button", { name: "Delete" }));
    expect(await findToast("Deletion failed")).toBeInTheDocument();
    expect(screen.getByText("You do not have permission to do this.")).toBeInTheDocument();
  });

  it("hides edit, delete and create for role user", async () => {
    const { user } = openManagement("user");
    const warehouse = await siteGroup("Warehouse Roof");
    await user.click(within(warehouse).getByRole("button", { expanded: false }));
    expect(within(warehouse).getByRole("table")).toBeInTheDocument();
    expect(within(warehouse).queryByRole("button", { name: "Delete" })).not.toBeInTheDocument();
    expect(within(warehouse).queryByRole("button", { name: "Edit" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Create New Site" })).not.toBeInTheDocument();
  });

  it("shows the empty state with Create Your First Site", async () => {
    openManagement("orgOwner", { "GET /api/sites/enhanced": { body: [] } });
    expect(await screen.findByText("No sites created yet")).toBeInTheDocument();
    expect(screen.getByText("Total Capacity (kW)").parentElement).toHaveTextContent("0 kW");
    expect(screen.getByRole("link", { name: "Create Your First Site" })).toHaveAttribute(
      "href",
      "/app/create-site",
    );
  });

  it("shows the error state when the sites cannot be loaded", async () => {
    openManagement("orgOwner", {
      "GET /api/sites/enhanced": { status: 500, body: { error: "Database unavailable" } },
    });
    expect(await screen.findByText("Could not load sites")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});
