import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { findToast, makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";
import { amsterdam, estimate, makeAvailableSystem, makeEnhancedSite, rotterdam } from "./sites-fixtures";

const systems = [
  makeAvailableSystem(),
  makeAvailableSystem({
    id: "avail-2",
    name: "Boat Shed",
    providerId: "1298491919448889102",
    capacity: 3.4,
    location: null,
  }),
  makeAvailableSystem({
    id: "avail-3",
    name: "Garage",
    provider: "fronius",
    providerId: "fr-3",
    capacity: null,
  }),
];

function openWizard(extra: Parameters<typeof mockApi>[0] = {}) {
  const profile = makeProfile();
  storeSession(profile);
  const api = mockApi({
    ...signedInApi(profile),
    "GET /api/available-systems": { body: systems },
    "GET /api/geocode": { body: { results: [amsterdam, rotterdam] } },
    "POST /api/solar/estimate-yield": { body: estimate },
    ...extra,
  });
  return { ...api, ...renderApp("/app/create-site") };
}

const availableList = () => screen.getByRole("list", { name: "Available Systems" });
const totalCapacity = () => screen.getByTestId("total-capacity");
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function pickAmsterdam(user: ReturnType<typeof openWizard>["user"]) {
  await user.type(screen.getByLabelText("Address"), "Keizersgracht");
  await user.click(await screen.findByRole("option", { name: amsterdam.formattedAddress }));
}

describe("Create New Site wizard", () => {
  it("moves systems between the lists with the total capacity following", async () => {
    const { user } = openWizard();
    await screen.findByRole("listitem", { name: "Canal House" });
    expect(totalCapacity()).toHaveTextContent("0 kW");

    await user.click(screen.getByRole("button", { name: "Add Canal House" }));
    expect(totalCapacity()).toHaveTextContent("5.2 kW");
    expect(within(availableList()).queryByText("Canal House")).not.toBeInTheDocument();
    const configured = screen.getByRole("list", { name: "Configured Systems" });
    expect(within(configured).getByText("Canal House")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Add Boat Shed" }));
    expect(totalCapacity()).toHaveTextContent("8.6 kW");
    // A system without a known capacity adds nothing to the total.
    await user.click(screen.getByRole("button", { name: "Add Garage" }));
    expect(totalCapacity()).toHaveTextContent("8.6 kW");
    expect(screen.getByText("Every available system has been added.")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Remove Canal House" }));
    expect(totalCapacity()).toHaveTextContent("3.4 kW");
    expect(within(availableList()).getByText("Canal House")).toBeInTheDocument();
  });

  it("looks addresses up only from 5 characters, and picking one sets the location", async () => {
    const { user, calls } = openWizard();
    const address = await screen.findByLabelText("Address");
    await user.type(address, "Keiz");
    await pause(700);
    expect(calls.filter((call) => call.path === "/api/geocode")).toHaveLength(0);
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();

    await user.type(address, "e");
    const option = await screen.findByRole("option", { name: amsterdam.formattedAddress });
    const lookups = calls.filter((call) => call.path === "/api/geocode");
    expect(lookups).toHaveLength(1);
    expect(new URL(lookups[0]?.url ?? "", "http://localhost").searchParams.get("address")).toBe("Keize");
    expect(screen.getByRole("listbox")).toHaveClass("max-h-[15rem]");

    await user.click(option);
    expect(address).toHaveValue(amsterdam.formattedAddress);
    expect(screen.getByText("Location set")).toBeInTheDocument();
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
  });

  it("keeps working when the address lookup fails", async () => {
    const { user, calls } = openWizard({
      "GET /api/geocode": { status: 502, body: { error: "Geocoder down" } },
    });
    await user.type(await screen.findByLabelText("Address"), "Keizersgracht");
    await waitFor(() => expect(calls.some((call) => call.path === "/api/geocode")).toBe(true));
    await pause(100);
    expect(screen.queryByRole("option")).not.toBeInTheDocument();
    expect(screen.queryByText("Geocoder down")).not.toBeInTheDocument();
  });

  it("enables Create only with a name, a picked address and a system", async () => {
    const { user } = openWizard();
    await screen.findByRole("listitem", { name: "Canal House" });
    const create = screen.getByRole("button", { name: "Create Site" });
    expect(create).toBeDisabled();
    await user.type(screen.getByLabelText("Site Name"), "Canal Houses");
    expect(create).toBeDisabled();
    await pickAmsterdam(user);
    expect(create).toBeDisabled();
    expect(screen.getByText("Still needed: at least one system")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Add Canal House" }));
    expect(create).toBeEnabled();
  });

  it("shows the yield estimate with units once there is a location and capacity", async () => {
    const { user, calls } = openWizard();
    await screen.findByRole("listitem", { name: "Canal House" });
    expect(screen.getByText(/Pick an address and add systems/)).toBeInTheDocument();
    await pickAmsterdam(user);
    await user.click(screen.getByRole("button", { name: "Add Canal House" }));
    expect(await screen.findByText("9,876 kWh")).toBeInTheDocument();
    expect(screen.getByText("823 kWh")).toBeInTheDocument();
    expect(screen.getByText("2.9 h per day")).toBeInTheDocument();
    expect(screen.getByText("2.74 kWh/m² per day")).toBeInTheDocument();
    expect(calls.find((call) => call.path === "/api/solar/estimate-yield")?.body).toEqual({
      latitude: amsterdam.latitude,
      longitude: amsterdam.longitude,
      capacity: 5.2,
    });
  });

  it("says Estimation unavailable when the estimate fails", async () => {
    const { user } = openWizard({
      "POST /api/solar/estimate-yield": { status: 500, body: { error: "boom" } },
    });
    await screen.findByRole("listitem", { name: "Canal House" });
    await pickAmsterdam(user);
    await user.click(screen.getByRole("button", { name: "Add Canal House" }));
    expect(await findToast("Estimation unavailable")).toBeInTheDocument();
    expect(screen.getAllByText(/Could not estimate solar yield for this location\./).length).toBeGreaterThan(
      0,
    );
  });

  it("creates the site, then attaches each system, then goes to Site Management", async () => {
    const { user, calls, router } = openWizard({
      "POST /api/sites": ({ body }) => ({
        status: 201,
        body: { ...makeEnhancedSite({ id: "site-new" }), body },
      }),
      "POST /api/sites/site-new/systems": { status: 201, body: { message: "ok", attached: true } },
      "GET /api/sites/enhanced": { body: [] },
    });
    await screen.findByRole("listitem", { name: "Canal House" });
    await user.type(screen.getByLabelText("Site Name"), " Canal Houses ");
    await pickAmsterdam(user);
    await user.click(screen.getByRole("button", { name: "Add Canal House" }));
    await user.click(screen.getByRole("button", { name: "Add Boat Shed" }));
    await screen.findByText("9,876 kWh");
    await user.click(screen.getByRole("button", { name: "Create Site" }));

    expect(await findToast("Site created")).toBeInTheDocument();
    expect(screen.getByText("Canal Houses created with 2 monitoring systems")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/app/site-management"));

    const writes = calls.filter((call) => call.method === "POST" && call.path.startsWith("/api/sites"));
    expect(writes.map((call) => call.path)).toEqual([
      "/api/sites",
      "/api/sites/site-new/systems",
      "/api/sites/site-new/systems",
    ]);
    expect(writes[0]?.body).toEqual({
      name: "Canal Houses",
      address: amsterdam.formattedAddress,
      location: amsterdam.formattedAddress,
      latitude: "52.3752",
      longitude: "4.8862",
      city: "Amsterdam",
      state: "Noord-Holland",
      country: "Nederland",
      provider: "solis",
      estimatedYield: estimate.annualYield,
    });
    expect(writes[1]?.body).toEqual({
      systemName: "Canal House",
      provider: "solis",
      providerId: "1298491919448889101",
      capacity: "5.2",
      systemType: "pv",
    });
    expect(writes[2]?.body).toMatchObject({ systemName: "Boat Shed", capacity: "3.4" });
  });

  it("says Creation failed with the server's error and deletes the half-built site", async () => {
    const { user, calls, router } = openWizard({
      "POST /api/sites": { status: 201, body: makeEnhancedSite({ id: "site-new" }) },
      "POST /api/sites/site-new/systems": {
        status: 409,
        body: {
          error: "This system is already attached to another site",
          code: "conflict",
          details: { reason: "system_attached", siteId: "other" },
        },
      },
      "DELETE /api/sites/site-new": { body: { message: "deleted", releasedSystemIds: [] } },
    });
    await screen.findByRole("listitem", { name: "Canal House" });
    await user.type(screen.getByLabelText("Site Name"), "Canal Houses");
    await pickAmsterdam(user);
    await user.click(screen.getByRole("button", { name: "Add Canal House" }));
    await user.click(screen.getByRole("button", { name: "Create Site" }));
    expect(await findToast("Creation failed")).toBeInTheDocument();
    expect(screen.getByText("This system is already attached to another site.")).toBeInTheDocument();
    expect(calls.some((call) => call.method === "DELETE" && call.path === "/api/sites/site-new")).toBe(true);
    expect(router.state.location.pathname).toBe("/app/create-site");
  });

  it("points to Provider Credentials when no system is available", async () => {
    const { user } = openWizard({
      "GET /api/available-systems": { body: [] },
      "GET /api/providers": { body: [] },
      "GET /api/credentials": { body: [] },
    });
    expect(await screen.findByText("No monitoring systems available")).toBeInTheDocument();
    expect(screen.getByText(/Settings → Provider Credentials/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Open Provider Credentials" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByRole("tab", { name: "Provider Credentials" })).toHaveAttribute(
      "aria-selected",
      "true",
    );
  });

  it("says Loading failed when the available systems cannot be loaded", async () => {
    openWizard({ "GET /api/available-systems": { status: 500, body: { error: "Database unavailable" } } });
    expect(await findToast("Loading failed")).toBeInTheDocument();
    // The toast (its description) arrives with sonner's chunk, after the page's own error state.
    expect(await findToast("Could not load available monitoring systems.")).toBeInTheDocument();
  });

  it("has a Cancel link back to Site Management", async () => {
    openWizard();
    expect(await screen.findByRole("link", { name: "Cancel" })).toHaveAttribute(
      "href",
      "/app/site-management",
    );
  });
});
