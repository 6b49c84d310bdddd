import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Role } from "../../schema/roles";
import { findToast, makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";
import { amsterdam, makeSite } from "./sites-fixtures";

function openSites(role: Role = "orgOwner", extra: Parameters<typeof mockApi>[0] = {}) {
  const profile = makeProfile(
    role === "superAdmin" ? { role, companyId: null, companyName: null } : { role },
  );
  storeSession(profile);
  const api = mockApi({ ...signedInApi(profile), ...extra });
  return { ...api, ...renderApp("/app/sites") };
}

async function openDialog(extra: Parameters<typeof mockApi>[0] = {}) {
  const rendered = openSites("orgOwner", { "GET /api/sites": { body: [] }, ...extra });
  await screen.findByText("No sites available");
  await rendered.user.click(screen.getAllByRole("button", { name: "Add Site" })[0] as HTMLElement);
  const dialog = await screen.findByRole("dialog");
  return { ...rendered, dialog };
}

describe("Solar Sites", () => {
  it("shows each site's provider, capacity, status, power and energy with units and the data time", async () => {
    openSites("orgOwner", {
      "GET /api/sites": {
        body: [
          makeSite(),
          makeSite({
            id: "site-2",
            name: "Depot",
            status: "fault",
            provider: "fronius",
            providers: ["fronius"],
            capacity: 100.5,
            currentPower: 640,
            todayGeneration: 950,
            lastUpdate: null,
            systemCount: 1,
          }),
        ],
      },
    });
    const warehouse = await screen.findByRole("article", { name: "Warehouse Roof" });
    expect(warehouse).toHaveTextContent("Solis");
    expect(warehouse).toHaveTextContent("12.5 kW");
    expect(warehouse).toHaveTextContent("4.3 kW");
    expect(warehouse).toHaveTextContent("18.4 kWh");
    expect(warehouse).toHaveTextContent(/Data as of 1 Jun 2026/);
    expect(within(warehouse).getByText("Online")).toBeInTheDocument();

    const depot = screen.getByRole("article", { name: "Depot" });
    expect(depot).toHaveTextContent("100.5 kW");
    expect(depot).toHaveTextContent("640 W");
    expect(depot).toHaveTextContent("950 Wh");
    expect(depot).toHaveTextContent("No data yet");
    // Fault in a warning colour.
    expect(within(depot).getByText("Fault").closest("span[class*='amber']")).not.toBeNull();
  });

  it("shows the error state with the server's answer when the list fails", async () => {
    openSites("orgOwner", {
      "GET /api/sites": {
        status: 500,
        body: { error: "Internal server error", code: "internal_error", details: { requestId: "req-1" } },
      },
    });
    expect(await screen.findByText("Could not load sites")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Something went wrong on our side (reference req-1).",
    );
  });

  it("tells a super administrator, who has no organisation, that there are no sites to show", async () => {
    const { calls } = openSites("superAdmin");
    expect(await screen.findByText(/this account has none/)).toBeInTheDocument();
    expect(calls.some((call) => call.path === "/api/sites")).toBe(false);
  });

  it("offers no Add Site button to role user", async () => {
    openSites("user", { "GET /api/sites": { body: [makeSite()] } });
    await screen.findByRole("article", { name: "Warehouse Roof" });
    expect(screen.queryByRole("button", { name: "Add Site" })).not.toBeInTheDocument();
  });
});

describe("Add Site dialog", () => {
  it("asks for an address before searching", async () => {
    const { dialog, user, calls } = await openDialog();
    await user.click(within(dialog).getByRole("button", { name: "Search" }));
    expect(await findToast("Address required")).toBeInTheDocument();
    expect(screen.getByText("Please enter an address to search for.")).toBeInTheDocument();
    expect(calls.some((call) => call.path === "/api/geocode")).toBe(false);
  });

  it("blocks submit until the address is verified, then creates the site with the verified location", async () => {
    const { dialog, user, calls } = await openDialog({
      "POST /api/geocode": { body: amsterdam },
      "POST /api/sites": ({ body }) => ({
        status: 201,
        body: { ...makeSite(), ...(body as object), id: "new" },
      }),
    });
    expect(within(dialog).getByLabelText("Capacity (kW)")).toHaveAttribute("step", "0.1");
    expect(within(dialog).getByLabelText("Capacity (kW)")).toHaveAttribute("placeholder", "100.5");
    await user.type(within(dialog).getByLabelText("Site Name"), "  Canal House ");
    await user.type(within(dialog).getByLabelText("Address"), "Keizersgracht 123, Amsterdam");
    await user.selectOptions(within(dialog).getByLabelText("Provider"), "solis");
    await user.type(within(dialog).getByLabelText("Capacity (kW)"), "100.5");

    await user.click(within(dialog).getByRole("button", { name: "Add Site" }));
    expect(await findToast("Address verification required")).toBeInTheDocument();
    expect(screen.getByText("Please search and verify the address location first.")).toBeInTheDocument();
    expect(calls.some((call) => call.method === "POST" && call.path === "/api/sites")).toBe(false);

    await user.type(within(dialog).getByLabelText("Country"), "nl");
    await user.click(within(dialog).getByRole("button", { name: "Search" }));
    expect(await findToast("Address found")).toBeInTheDocument();
    expect(screen.getByText(`Location: ${amsterdam.formattedAddress}`)).toBeInTheDocument();
    expect(calls.find((call) => call.path === "/api/geocode")?.body).toEqual({
      address: "Keizersgracht 123, Amsterdam",
      country: "nl",
    });

    await user.click(within(dialog).getByRole("button", { name: "Add Site" }));
    expect(await findToast("Site added successfully")).toBeInTheDocument();
    expect(screen.getByText("The new site has been created with location data.")).toBeInTheDocument();
    expect(calls.find((call) => call.method === "POST" && call.path === "/api/sites")?.body).toEqual({
      name: "Canal House",
      address: "Keizersgracht 123, Amsterdam",
      location: amsterdam.formattedAddress,
      latitude: "52.3752",
      longitude: "4.8862",
      city: "Amsterdam",
      state: "Noord-Holland",
      country: "Nederland",
      provider: "solis",
      capacity: "100.5",
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    // The list is refreshed after the creation.
    await waitFor(() =>
      expect(calls.filter((call) => call.method === "GET" && call.path === "/api/sites")).toHaveLength(2),
    );

    // Reopened, the form is empty and unverified again.
    await user.click(screen.getAllByRole("button", { name: "Add Site" })[0] as HTMLElement);
    const reopened = await screen.findByRole("dialog");
    expect(within(reopened).getByLabelText("Site Name")).toHaveValue("");
    expect(within(reopened).queryByText("Location verified")).not.toBeInTheDocument();
  });

  it("clears the verification when the address changes", async () => {
    const { dialog, user } = await openDialog({ "POST /api/geocode": { body: amsterdam } });
    await user.type(within(dialog).getByLabelText("Address"), "Keizersgracht 123");
    await user.click(within(dialog).getByRole("button", { name: "Search" }));
    expect(await within(dialog).findByText("Location verified")).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText("Address"), "4");
    expect(within(dialog).queryByText("Location verified")).not.toBeInTheDocument();
  });

  it("says Address not found with the server's details", async () => {
    const { dialog, user } = await openDialog({
      "POST /api/geocode": {
        status: 404,
        body: {
          error: "Address not found",
          code: "address_not_found",
          details: { address: "Nowhere 1", message: "No place matches this address. Check the spelling." },
        },
      },
    });
    await user.type(within(dialog).getByLabelText("Address"), "Nowhere 1");
    await user.click(within(dialog).getByRole("button", { name: "Search" }));
    expect(await findToast("Address not found")).toBeInTheDocument();
    expect(
      screen.getByText("No place matches this address. Check the spelling, or add the city and country."),
    ).toBeInTheDocument();
  });

  it("says Failed to add site with the server's reason", async () => {
    const { dialog, user } = await openDialog({
      "POST /api/geocode": { body: amsterdam },
      "POST /api/sites": {
        status: 400,
        body: {
          error: "Invalid input",
          code: "validation_failed",
          details: [{ path: ["capacity"], message: "Capacity must not be negative" }],
        },
      },
    });
    await user.type(within(dialog).getByLabelText("Site Name"), "Canal House");
    await user.type(within(dialog).getByLabelText("Address"), "Keizersgracht 123");
    await user.selectOptions(within(dialog).getByLabelText("Provider"), "sma");
    await user.click(within(dialog).getByRole("button", { name: "Search" }));
    await within(dialog).findByText("Location verified");
    await user.click(within(dialog).getByRole("button", { name: "Add Site" }));
    expect(await findToast("Failed to add site")).toBeInTheDocument();
    expect(screen.getByText("Some values are not valid: capacity")).toBeInTheDocument();
    expect(screen.getByRole("dialog")).toBeInTheDocument();
  });
});
