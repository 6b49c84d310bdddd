import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Role } from "../../schema/roles";
import { findToast, makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";
import { makePortfolio, makeSite } from "./sites-fixtures";

const sites = [makeSite(), makeSite({ id: "site-2", name: "Depot", location: "Rotterdam" })];
const portfolios = [
  makePortfolio({ siteCount: 2, siteIds: ["site-1", "site-2"] }),
  makePortfolio({ id: "portfolio-2", name: "Schools", siteCount: 1, siteIds: ["site-2"] }),
  makePortfolio({ id: "portfolio-3", name: "Empty", siteCount: 0 }),
];

async function openTab(role: Role, extra: Parameters<typeof mockApi>[0] = {}) {
  const profile = makeProfile({ role });
  storeSession(profile);
  const api = mockApi({
    ...signedInApi(profile),
    "GET /api/users": { body: [] },
    "GET /api/invites": { body: [] },
    "GET /api/sites": { body: sites },
    "GET /api/portfolios": { body: portfolios },
    ...extra,
  });
  const rendered = renderApp("/app/weather");
  await rendered.user.click(await screen.findByRole("button", { name: "Settings" }));
  const dialog = await screen.findByRole("dialog");
  await rendered.user.click(within(dialog).getByRole("tab", { name: "Sites & Portfolios" }));
  return { ...api, ...rendered, dialog };
}

const bar = () => screen.queryByRole("region", { name: "Add the selected sites to a portfolio" });

describe("Settings → Sites & Portfolios", () => {
  it("lists portfolios with their real site counts", async () => {
    const { dialog } = await openTab("orgOwner");
    const list = await within(dialog).findByRole("list", { name: "Portfolios" });
    expect(within(list).getByText("North Holland").closest("li")).toHaveTextContent("2 sites");
    expect(within(list).getByText("Schools").closest("li")).toHaveTextContent("1 site");
    expect(within(list).getByText("Empty").closest("li")).toHaveTextContent("0 sites");
  });

  it("shows the portfolio bar once a site is selected, adds the selection and clears it", async () => {
    const { dialog, user, calls } = await openTab("orgEngineer", {
      "POST /api/portfolios/portfolio-2/sites": {
        body: { message: "1 site added to Schools", added: 1, portfolio: portfolios[1] },
      },
    });
    expect(within(dialog).getByText("Full Access")).toBeInTheDocument();
    const siteList = await within(dialog).findByRole("list", { name: "Sites" });
    expect(siteList).toHaveClass("max-h-[24rem]");
    expect(bar()).not.toBeInTheDocument();

    await user.click(within(siteList).getByRole("checkbox", { name: /Warehouse Roof/ }));
    expect(bar()).toBeInTheDocument();
    expect(within(bar() as HTMLElement).getByText("1 selected")).toBeInTheDocument();
    await user.selectOptions(within(bar() as HTMLElement).getByLabelText("Portfolio"), "portfolio-2");
    await user.click(within(bar() as HTMLElement).getByRole("button", { name: "Add to Portfolio" }));

    expect(await findToast("Sites added")).toBeInTheDocument();
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({ siteIds: ["site-1"] });
    await waitFor(() => expect(bar()).not.toBeInTheDocument());
    expect(within(siteList).getByRole("checkbox", { name: /Warehouse Roof/ })).not.toBeChecked();
  });

  it("shows no portfolio bar while there is no portfolio", async () => {
    const { dialog, user } = await openTab("orgOwner", { "GET /api/portfolios": { body: [] } });
    expect(await within(dialog).findByText("No portfolios yet.")).toBeInTheDocument();
    const siteList = await within(dialog).findByRole("list", { name: "Sites" });
    await user.click(within(siteList).getByRole("checkbox", { name: /Depot/ }));
    expect(within(siteList).getByRole("checkbox", { name: /Depot/ })).toBeChecked();
    expect(bar()).not.toBeInTheDocument();
  });

  it("creates a portfolio from the tab, its button disabled while the name is blank", async () => {
    const { dialog, user, calls } = await openTab("orgOwner", {
      "POST /api/portfolios": { status: 201, body: makePortfolio({ id: "p9", name: "East" }) },
    });
    const form = within(dialog).getByRole("form", { name: "Create Portfolio" });
    expect(within(form).getByRole("button", { name: "Create Portfolio" })).toBeDisabled();
    await user.type(within(form).getByLabelText("Portfolio Name"), "East");
    await user.type(within(form).getByLabelText("Description (optional)"), " Eastern sites ");
    await user.click(within(form).getByRole("button", { name: "Create Portfolio" }));
    expect(await findToast("Portfolio created")).toBeInTheDocument();
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({
      name: "East",
      description: "Eastern sites",
    });
  });

  it("is Read Only for role user: no create form, no selection", async () => {
    const { dialog } = await openTab("user");
    expect(within(dialog).getByText("Read Only")).toBeInTheDocument();
    expect(within(dialog).queryByText("Full Access")).not.toBeInTheDocument();
    const siteList = await within(dialog).findByRole("list", { name: "Sites" });
    for (const checkbox of within(siteList).getAllByRole("checkbox")) expect(checkbox).toBeDisabled();
    expect(within(dialog).queryByRole("form", { name: "Create Portfolio" })).not.toBeInTheDocument();
  });

  it("says No sites available when the organisation has none", async () => {
    const { dialog } = await openTab("orgOwner", { "GET /api/sites": { body: [] } });
    expect(await within(dialog).findByText("No sites available")).toBeInTheDocument();
    expect(within(dialog).getByText("Configure provider credentials to import sites")).toBeInTheDocument();
  });
});
