import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { SiteCountsAnswer } from "../../schema/api/site-lists";
import { makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";
import { makeSite } from "./sites-fixtures";

const counts: SiteCountsAnswer = {
  total: 20_000,
  byStatus: { online: 19_000, offline: 700, fault: 300 },
  withOpenAlerts: 120,
  systemCount: 20_000,
  capacityKw: 150_000,
  providers: [{ value: "solis", name: "solis", count: 20_000 }],
  countries: [
    { value: "France", name: "France", count: 12_000 },
    { value: "-", name: null, count: 8_000 },
  ],
  portfolios: [{ value: "p-1", name: "Client Rhône", count: 40 }],
  labels: [],
};

function openSites(path: string) {
  const profile = makeProfile({ role: "orgOwner" });
  storeSession(profile);
  const api = mockApi({
    ...signedInApi(profile),
    "GET /api/sites": ({ url }) => {
      const params = new URL(url, "http://localhost").searchParams;
      const faultOnly = params.get("status") === "fault";
      const q = params.get("q");
      const sites = q
        ? [makeSite({ id: "site-9", name: q })]
        : faultOnly
          ? [makeSite({ id: "site-2", name: "Depot", status: "fault" })]
          : [makeSite(), makeSite({ id: "site-2", name: "Depot", status: "fault" })];
      const total = q ? 1 : faultOnly ? 300 : 20_000;
      return { body: sites, headers: { "X-Total-Count": String(total) } };
    },
    "GET /api/sites/counts": { body: counts },
  });
  return { ...api, ...renderApp(path) };
}

describe("Solar Sites at fleet size", () => {
  it("asks for the worst first a page at a time, with the counts per status and the total", async () => {
    const { calls } = openSites("/app/sites");
    await screen.findByRole("article", { name: "Warehouse Roof" });
    const list = calls.find((call) => call.path === "/api/sites");
    const params = new URL(list?.url ?? "", "http://localhost").searchParams;
    expect(params.get("sort")).toBe("pr");
    expect(params.get("page")).toBe("1");
    expect(Number(params.get("pageSize"))).toBeLessThanOrEqual(50);
    expect(await screen.findByText("20,000 sites")).toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "Fault: 300" })).not.toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Online: 19,000" })).toBeInTheDocument();
    expect(screen.getByRole("navigation", { name: "Pages" })).toHaveTextContent("Page 1 of 417");
  });

  it("reads the filters from the URL, sends them to the server and shows them as removable chips", async () => {
    const { calls, user, router } = openSites("/app/sites?status=fault");
    await screen.findByRole("article", { name: "Depot" });
    expect(screen.getByRole("checkbox", { name: "Fault: 300" })).toBeChecked();
    expect(await screen.findByText("300 sites")).toBeInTheDocument();
    const asked = calls.filter((call) => call.path === "/api/sites").map((call) => call.url);
    expect(asked.every((url) => url.includes("status=fault"))).toBe(true);
    const chips = screen.getByRole("list", { name: "Selected filters" });
    await user.click(within(chips).getByRole("button", { name: "Remove Status: Fault" }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(await screen.findByText("20,000 sites")).toBeInTheDocument();
  });

  it("searches on the server and keeps the search in the URL", async () => {
    const { calls, user, router } = openSites("/app/sites");
    await screen.findByRole("article", { name: "Warehouse Roof" });
    await user.type(screen.getByRole("searchbox", { name: /Search sites/ }), "Plant 00042");
    expect(await screen.findByRole("article", { name: "Plant 00042" })).toBeInTheDocument();
    expect(await screen.findByText("1 site")).toBeInTheDocument();
    expect(router.state.location.search).toMatchObject({ q: "Plant 00042" });
    expect(calls.some((call) => call.url.includes("q=Plant+00042"))).toBe(true);
  });
});
