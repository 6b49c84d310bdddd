import { act, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Alert } from "../../schema/api/alerts";
import type { Role } from "../../schema/roles";
import {
  makeAlert,
  makeFleetSite,
  makeMetric,
  makeSummary,
  summaryOf,
  systemsPages,
} from "./dashboard-fixtures";
import { FakeWebSocket } from "./fake-websocket";
import { findToast, makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";

/** An alerts API over an in-memory list that PATCH really changes. */
function renderAlerts(
  initial: Alert[],
  role: Role = "orgOwner",
  path = "/app/alerts",
  unread: () => number = () => 0,
) {
  const profile = makeProfile({ role });
  storeSession(profile);
  let alerts = [...initial];
  const api = mockApi({
    ...signedInApi(profile),
    "GET /api/alerts": ({ url }) => {
      const params = new URL(url, "http://localhost").searchParams;
      const state = params.get("state");
      const severity = params.get("severity");
      return {
        body: alerts.filter(
          (alert) =>
            (state === "all" || alert.resolved === (state === "resolved")) &&
            (severity === null || alert.severity === severity),
        ),
      };
    },
    "GET /api/alerts/summary": () => ({ body: summaryOf(alerts) }),
    "GET /api/notifications": () => ({ body: { notifications: [], unread: unread() } }),
    "PATCH /api/alerts/alert-1": ({ body }) => {
      const resolved = (body as { resolved: boolean }).resolved;
      alerts = alerts.map((alert) =>
        alert.id === "alert-1"
          ? { ...alert, resolved, resolvedAt: resolved ? "2026-06-01T11:00:00.000Z" : null }
          : alert,
      );
      return { body: alerts.find((alert) => alert.id === "alert-1") };
    },
    "GET /api/sites": { body: [makeFleetSite(), makeFleetSite({ id: "site-2", name: "Depot" })] },
    // The Sites badge reads the fleet's counts, not the list.
    "GET /api/sites/counts": {
      body: {
        total: 2,
        byStatus: { online: 2, offline: 0, fault: 0 },
        withOpenAlerts: 0,
        systemCount: 2,
        capacityKw: 20,
        providers: [],
        countries: [],
        portfolios: [],
        labels: [],
      },
    },
    "GET /api/dashboard/summary": { body: makeSummary() },
    "GET /api/dashboard/systems": systemsPages([makeMetric()]),
  });
  return { ...renderApp(path), ...api };
}

const fixtures = [
  makeAlert({ id: "alert-1", title: "Grid overvoltage", severity: "critical" }),
  makeAlert({
    id: "alert-2",
    title: "String low",
    severity: "warning",
    systemName: "Depot Carport",
    siteName: "Depot",
  }),
  makeAlert({ id: "alert-3", title: "Firmware update", severity: "info", systemName: null, siteName: null }),
  makeAlert({
    id: "alert-4",
    title: "Old fault",
    severity: "warning",
    resolved: true,
    resolvedAt: "2026-05-30T10:00:00.000Z",
  }),
];

const list = () => screen.findByRole("list", { name: "Alerts" });

describe("alerts page", () => {
  it("lists unresolved alerts with severity colours, subjects and times", async () => {
    renderAlerts(fixtures);
    const items = within(await list()).getAllByRole("listitem");
    expect(items.map((item) => item.getAttribute("aria-label"))).toEqual([
      "Grid overvoltage",
      "String low",
      "Firmware update",
    ]);
    expect(items[0]).toHaveClass("border-l-red-500");
    expect(items[1]).toHaveClass("border-l-amber-500");
    expect(items[2]).toHaveClass("border-l-blue-500");
    expect(within(items[0] as HTMLElement).getByText("Critical")).toBeInTheDocument();
    expect(within(items[1] as HTMLElement).getByText(/Depot Carport · Depot · Solis/)).toBeInTheDocument();
    expect(within(items[2] as HTMLElement).getByText(/Organisation-wide/)).toBeInTheDocument();
    expect(within(items[0] as HTMLElement).getByText(/^Raised /)).toBeInTheDocument();
    expect(screen.getByText("3 unresolved: 1 critical, 1 warning, 1 info.")).toBeInTheDocument();
  });

  it("filters by state and severity through the API", async () => {
    const { user, calls } = renderAlerts(fixtures);
    await list();
    await user.selectOptions(screen.getByLabelText("State"), "resolved");
    await waitFor(() =>
      expect(within(screen.getByRole("list", { name: "Alerts" })).getAllByRole("listitem")).toHaveLength(1),
    );
    expect(screen.getByText("Old fault")).toBeInTheDocument();
    expect(screen.getByText(/· resolved /)).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText("State"), "all");
    await user.selectOptions(screen.getByLabelText("Severity"), "warning");
    await waitFor(() =>
      expect(
        within(screen.getByRole("list", { name: "Alerts" }))
          .getAllByRole("listitem")
          .map((item) => item.getAttribute("aria-label")),
      ).toEqual(["String low", "Old fault"]),
    );
    // The list asks the server for the filters (a page at a time).
    expect(
      calls.some((call) => {
        const url = new URL(call.url, "http://localhost");
        return (
          url.pathname === "/api/alerts" &&
          url.searchParams.get("state") === "all" &&
          url.searchParams.get("severity") === "warning" &&
          url.searchParams.get("sort") === "lostEnergy"
        );
      }),
    ).toBe(true);

    await user.selectOptions(screen.getByLabelText("Severity"), "info");
    await user.selectOptions(screen.getByLabelText("State"), "resolved");
    expect(await screen.findByText("No alerts match these filters")).toBeInTheDocument();
  });

  it("resolves an alert and reopens it", async () => {
    const { user, calls } = renderAlerts(fixtures);
    await list();
    await user.click(screen.getByRole("button", { name: "Resolve Grid overvoltage" }));
    await findToast("Alert resolved");
    const patch = calls.find((call) => call.method === "PATCH");
    expect(patch?.path).toBe("/api/alerts/alert-1");
    expect(patch?.body).toEqual({ resolved: true });
    // Its list item, not its text: the toast names the alert too and stays for seconds.
    await waitFor(() =>
      expect(screen.queryByRole("listitem", { name: "Grid overvoltage" })).not.toBeInTheDocument(),
    );
    expect(screen.getByText("2 unresolved: 0 critical, 1 warning, 1 info.")).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText("State"), "resolved");
    await user.click(await screen.findByRole("button", { name: "Reopen Grid overvoltage" }));
    // Reopened, it leaves the resolved list.
    await waitFor(() =>
      expect(screen.queryByRole("listitem", { name: "Grid overvoltage" })).not.toBeInTheDocument(),
    );
    expect(calls.filter((call) => call.method === "PATCH").map((call) => call.body)).toEqual([
      { resolved: true },
      { resolved: false },
    ]);
  });

  it.each<[Role, boolean]>([
    ["user", false],
    ["orgEngineer", true],
    ["orgOwner", true],
  ])("for %s offers resolve buttons: %s", async (role, allowed) => {
    renderAlerts(fixtures, role);
    await list();
    expect(screen.queryAllByRole("button", { name: /^Resolve / }).length > 0).toBe(allowed);
  });

  it("shows No Active Alerts when nothing is unresolved", async () => {
    renderAlerts([fixtures[3] as Alert]);
    expect(await screen.findByText("No Active Alerts")).toBeInTheDocument();
  });
});

describe("alert and site counts in the frame", () => {
  it("badges Sites with the site count and Alerts (red), and the bell with unread notifications", async () => {
    renderAlerts(fixtures, "user", "/app/dashboard", () => 2);
    const nav = await screen.findByRole("navigation", { name: "Main navigation" });
    const sitesBadge = await within(nav).findByTestId("nav-badge-/app/sites");
    expect(sitesBadge).toHaveTextContent("2");
    const alertsBadge = await within(nav).findByTestId("nav-badge-/app/alerts");
    expect(alertsBadge).toHaveTextContent("3");
    expect(alertsBadge).toHaveClass("bg-red-600");
    expect(within(nav).getByRole("link", { name: "Alerts" })).toHaveAccessibleDescription(
      "3 unresolved alerts",
    );
    expect(within(nav).getByRole("link", { name: "Sites" })).toHaveAccessibleDescription("2 sites");

    const banner = screen.getByRole("banner");
    await waitFor(() => expect(within(banner).getByTestId("bell-count")).toHaveTextContent("2"));
    expect(within(banner).getByRole("button", { name: "Notifications" })).toHaveAccessibleDescription(
      "2 unread",
    );
  });

  it("reads the counts and the bell's notifications again when the server says alerts changed", async () => {
    let unread = 1;
    const { calls } = renderAlerts(fixtures, "user", "/app/dashboard", () => unread);
    const banner = await screen.findByRole("banner");
    const nav = await screen.findByRole("navigation", { name: "Main navigation" });
    await waitFor(() => expect(within(banner).getByTestId("bell-count")).toHaveTextContent("1"));
    await waitFor(() => expect(within(nav).getByTestId("nav-badge-/app/alerts")).toHaveTextContent("3"));
    const reads = (path: string) => calls.filter((call) => call.path === path).length;
    const [summaries, notifications] = [reads("/api/alerts/summary"), reads("/api/notifications")];
    const socket = FakeWebSocket.instances[0];
    act(() => socket?.serverOpens());
    unread = 4;
    act(() => socket?.serverSends({ type: "alerts_changed", data: { openCount: 7 } }));
    await waitFor(() => expect(within(banner).getByTestId("bell-count")).toHaveTextContent("4"));
    expect(reads("/api/alerts/summary")).toBeGreaterThan(summaries);
    expect(reads("/api/notifications")).toBeGreaterThan(notifications);
  });

  it("hides the alerts badge and bell count when nothing is unresolved", async () => {
    renderAlerts([], "user", "/app/dashboard");
    const nav = await screen.findByRole("navigation", { name: "Main navigation" });
    await within(nav).findByTestId("nav-badge-/app/sites");
    const bell = within(screen.getByRole("banner")).getByRole("button", { name: "Notifications" });
    await waitFor(() => expect(bell).toHaveAccessibleDescription("0 unread"));
    expect(within(nav).queryByTestId("nav-badge-/app/alerts")).not.toBeInTheDocument();
    expect(screen.queryByTestId("bell-count")).not.toBeInTheDocument();
  });
});
