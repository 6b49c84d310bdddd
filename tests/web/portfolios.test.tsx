import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Role } from "../../schema/roles";
import { findToast, makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";
import { makePortfolio, makeSite } from "./sites-fixtures";

const sites = [
  makeSite(),
  makeSite({ id: "site-2", name: "Depot", location: "Rotterdam", lastUpdate: "2026-06-01T11:00:00.000Z" }),
  makeSite({ id: "site-3", name: "School", location: "Utrecht" }),
];
const north = makePortfolio({
  siteCount: 2,
  siteIds: ["site-1", "site-2"],
  capacityKw: 25,
  currentPowerW: 8642,
  todayEnergyWh: 36_800,
  performanceRatio: 0.84,
  description: "Sites above the IJ",
});

function openPortfolios(role: Role = "orgOwner", extra: Parameters<typeof mockApi>[0] = {}) {
  const profile = makeProfile({ role });
  storeSession(profile);
  const api = mockApi({
    ...signedInApi(profile),
    "GET /api/sites": { body: sites },
    "GET /api/portfolios": { body: [north] },
    ...extra,
  });
  return { ...api, ...renderApp("/app/portfolios") };
}

describe("Portfolio Management", () => {
  it("shows each portfolio's sites and its totals from the server, with units and data time", async () => {
    openPortfolios();
    const card = await screen.findByRole("article", { name: "North Holland" });
    expect(card).toHaveTextContent("Sites above the IJ");
    const stat = (label: string) => within(card).getByText(label, { selector: "dt" }).parentElement;
    expect(stat("Sites")).toHaveTextContent("2");
    expect(stat("Capacity")).toHaveTextContent("25 kW");
    expect(stat("Current power")).toHaveTextContent("8.6 kW");
    expect(stat("Today's energy")).toHaveTextContent("36.8 kWh");
    expect(stat("PR today")).toHaveTextContent("84%");
    expect(card).toHaveTextContent("Data as of 1 Jun 2026, 11:00");
    const members = within(card).getByRole("list", { name: "Sites in this portfolio" });
    expect(within(members).getByText("Warehouse Roof")).toBeInTheDocument();
    expect(within(members).getByText("Depot")).toBeInTheDocument();
    expect(within(members).queryByText("School")).not.toBeInTheDocument();
  });

  it("keeps Create Portfolio disabled while the name is blank, then sends it trimmed", async () => {
    const { user, calls } = openPortfolios("orgOwner", {
      "POST /api/portfolios": ({ body }) => ({
        status: 201,
        body: makePortfolio({ ...(body as object), id: "p2" }),
      }),
    });
    await screen.findByRole("article", { name: "North Holland" });
    const form = screen.getByRole("form", { name: "Create Portfolio" });
    const create = within(form).getByRole("button", { name: "Create Portfolio" });
    expect(create).toBeDisabled();
    await user.type(within(form).getByLabelText("Portfolio Name"), "   ");
    expect(create).toBeDisabled();
    await user.type(within(form).getByLabelText("Portfolio Name"), "South ");
    await user.type(within(form).getByLabelText("Description (optional)"), "   ");
    expect(create).toBeEnabled();
    await user.click(create);

    expect(await findToast("Portfolio created")).toBeInTheDocument();
    // Trimmed name; an empty description is left out.
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({ name: "South" });
    expect(within(form).getByLabelText("Portfolio Name")).toHaveValue("");
  });

  it("says Creation failed with the server's reason", async () => {
    const { user } = openPortfolios("orgOwner", {
      "POST /api/portfolios": {
        status: 409,
        body: {
          error: "A portfolio with this name already exists",
          code: "conflict",
          details: { reason: "portfolio_name_taken", name: "North Holland", field: "name" },
        },
      },
    });
    await screen.findByRole("article", { name: "North Holland" });
    const form = screen.getByRole("form", { name: "Create Portfolio" });
    await user.type(within(form).getByLabelText("Portfolio Name"), "North Holland");
    await user.click(within(form).getByRole("button", { name: "Create Portfolio" }));
    expect(await findToast("Creation failed")).toBeInTheDocument();
    expect(screen.getByText("A portfolio with this name already exists.")).toBeInTheDocument();
  });

  it("adds the checked sites and removes a site", async () => {
    const { user, calls } = openPortfolios("orgOwner", {
      "POST /api/portfolios/portfolio-1/sites": {
        body: { message: "1 site added to North Holland", added: 1, portfolio: north },
      },
      "DELETE /api/portfolios/portfolio-1/sites/site-2": { body: { message: "removed", portfolio: north } },
    });
    const card = await screen.findByRole("article", { name: "North Holland" });
    const add = within(card).getByRole("button", { name: /Add Selected Sites/ });
    expect(add).toBeDisabled();
    await user.click(within(card).getByRole("checkbox", { name: /School/ }));
    await user.click(add);
    expect(await findToast("Sites added")).toBeInTheDocument();
    expect(calls.find((call) => call.path === "/api/portfolios/portfolio-1/sites")?.body).toEqual({
      siteIds: ["site-3"],
    });
    expect(within(card).getByRole("checkbox", { name: /School/ })).not.toBeChecked();

    await user.click(within(card).getByRole("button", { name: "Remove Depot from North Holland" }));
    expect(await findToast("Site removed")).toBeInTheDocument();
    expect(calls.some((call) => call.method === "DELETE" && call.path.endsWith("/sites/site-2"))).toBe(true);
  });

  it("says Failed to add sites when the server refuses", async () => {
    const { user } = openPortfolios("orgOwner", {
      "POST /api/portfolios/portfolio-1/sites": { status: 500, body: {} },
    });
    const card = await screen.findByRole("article", { name: "North Holland" });
    await user.click(within(card).getByRole("checkbox", { name: /School/ }));
    await user.click(within(card).getByRole("button", { name: /Add Selected Sites/ }));
    expect(await findToast("Failed to add sites")).toBeInTheDocument();
    expect(screen.getByText("Failed to add sites to portfolio.")).toBeInTheDocument();
  });

  it("renames a portfolio", async () => {
    const { user, calls } = openPortfolios("orgOwner", {
      "PATCH /api/portfolios/portfolio-1": ({ body }) => ({ body: { ...north, ...(body as object) } }),
    });
    const card = await screen.findByRole("article", { name: "North Holland" });
    await user.click(within(card).getByRole("button", { name: "Edit North Holland" }));
    const form = within(card).getByRole("form", { name: "Edit portfolio North Holland" });
    await user.clear(within(form).getByLabelText("Portfolio Name"));
    await user.type(within(form).getByLabelText("Portfolio Name"), "Noord-Holland");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    expect(await findToast("Portfolio updated")).toBeInTheDocument();
    expect(calls.find((call) => call.method === "PATCH")?.body).toEqual({ name: "Noord-Holland" });
  });

  it("deletes a portfolio only after confirmation", async () => {
    const confirm = vi.spyOn(window, "confirm").mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { user, calls } = openPortfolios("orgOwner", {
      "DELETE /api/portfolios/portfolio-1": { body: { message: "deleted" } },
    });
    const card = await screen.findByRole("article", { name: "North Holland" });
    await user.click(within(card).getByRole("button", { name: "Delete North Holland" }));
    expect(confirm).toHaveBeenCalledWith("Delete the portfolio North Holland? Its sites are kept.");
    expect(calls.some((call) => call.method === "DELETE")).toBe(false);
    await user.click(within(card).getByRole("button", { name: "Delete North Holland" }));
    expect(await findToast("Portfolio deleted")).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((call) => call.method === "DELETE")).toHaveLength(1));
  });

  it("says Deletion failed when the server refuses", async () => {
    vi.spyOn(window, "confirm").mockReturnValue(true);
    const { user } = openPortfolios("orgOwner", {
      "DELETE /api/portfolios/portfolio-1": { status: 500, body: {} },
    });
    const card = await screen.findByRole("article", { name: "North Holland" });
    await user.click(within(card).getByRole("button", { name: "Delete North Holland" }));
    expect(await findToast("Deletion failed")).toBeInTheDocument();
    expect(screen.getByText("Failed to delete portfolio.")).toBeInTheDocument();
  });

  it("is read only for role user", async () => {
    openPortfolios("user");
    const card = await screen.findByRole("article", { name: "North Holland" });
    expect(screen.queryByRole("form", { name: "Create Portfolio" })).not.toBeInTheDocument();
    expect(within(card).queryByRole("checkbox")).not.toBeInTheDocument();
    expect(within(card).queryByRole("button")).not.toBeInTheDocument();
  });

  it("shows the empty state without portfolios", async () => {
    openPortfolios("orgOwner", { "GET /api/portfolios": { body: [] } });
    expect(await screen.findByText("No portfolios yet")).toBeInTheDocument();
  });
});
