import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { type AlertRule, defaultAlertRules } from "../../schema/api/alert-rules";
import type { Alert } from "../../schema/api/alerts";
import type { Member } from "../../schema/api/members";
import type { Notification } from "../../schema/api/notifications";
import { defaultPreferences } from "../../schema/api/preferences";
import type { Role } from "../../schema/roles";
import { makeAlert, makeSummary, summaryOf } from "./dashboard-fixtures";
import { findToast, makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";

const notification = (overrides: Partial<Notification>): Notification => ({
  id: "n-1",
  kind: "alert_opened",
  alertId: "alert-1",
  rule: "no_production",
  title: "No production",
  severity: "critical",
  createdAt: "2026-06-21T11:30:00.000Z",
  read: false,
  ...overrides,
});

/** A notifications API over an in-memory list that POST /read really changes. */
function notificationsApi(initial: Notification[]) {
  let list = [...initial];
  const answer = () => ({ notifications: list, unread: list.filter((n) => !n.read).length });
  return {
    "GET /api/notifications": () => ({ body: answer() }),
    "POST /api/notifications/read": ({ body }: { body: unknown }) => {
      const ids = (body as { ids?: string[] }).ids;
      list = list.map((n) => (ids === undefined || ids.includes(n.id) ? { ...n, read: true } : n));
      return { body: { unread: answer().unread } };
    },
  };
}

function renderFrame(role: Role, path: string, extra: Parameters<typeof mockApi>[0] = {}) {
  const profile = makeProfile({ role });
  storeSession(profile);
  const api = mockApi({
    ...signedInApi(profile),
    "GET /api/sites": { body: [] },
    "GET /api/dashboard/summary": { body: makeSummary({ systemCount: 0, totals: { systemCount: 0 } }) },
    "GET /api/alerts/summary": { body: summaryOf([]) },
    ...extra,
  });
  return { ...renderApp(path), ...api };
}

describe("the bell", () => {
  const unread = [
    notification({
      id: "n-2",
      rule: "inverter_down",
      title: "Inverter down",
      severity: "warning",
      createdAt: "2026-06-21T12:00:00.000Z",
    }),
    notification({ id: "n-1" }),
    notification({
      id: "n-0",
      kind: "alert_resolved",
      rule: "vendor_alarm",
      title: "Old fault resolved",
      read: true,
    }),
  ];

  it("shows the member's unread count and lists their notifications", async () => {
    const { user } = renderFrame("user", "/app/dashboard", notificationsApi(unread));
    const banner = await screen.findByRole("banner");
    await waitFor(() => expect(within(banner).getByTestId("bell-count")).toHaveTextContent("2"));
    const bell = within(banner).getByRole("button", { name: "Notifications" });
    expect(bell).toHaveAccessibleDescription("2 unread");
    expect(bell).toHaveAttribute("aria-expanded", "false");

    await user.click(bell);
    expect(bell).toHaveAttribute("aria-expanded", "true");
    const list = await within(banner).findByRole("list", { name: "Notifications" });
    const items = within(list).getAllByRole("listitem");
    expect(items.map((item) => item.getAttribute("aria-label"))).toEqual([
      "Inverter down",
      "No production",
      "Old fault resolved",
    ]);
    expect(items.map((item) => item.dataset.unread)).toEqual(["true", "true", "false"]);
    expect(within(items[0] as HTMLElement).getByText("Warning")).toBeInTheDocument();
    expect(within(items[2] as HTMLElement).getByText("Resolved")).toBeInTheDocument();
    expect(within(banner).getByRole("link", { name: "Open the alerts" })).toHaveAttribute(
      "href",
      "/app/alerts",
    );
  });

  it("names Sunfleet's rules in the reader's language and keeps a vendor's title", async () => {
    const { user } = renderFrame("user", "/app/dashboard", {
      ...notificationsApi(unread),
      "GET /api/user/preferences": { body: { ...defaultPreferences, language: "es" } },
    });
    const banner = await screen.findByRole("banner");
    await waitFor(() => expect(within(banner).getByTestId("bell-count")).toHaveTextContent("2"));
    // Spanish loads as a chunk of its own once the preferences arrive.
    await user.click(await within(banner).findByRole("button", { name: "Notificaciones" }));
    const list = await within(banner).findByRole("list", { name: "Notificaciones" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.getAttribute("aria-label")),
    ).toEqual(["Inversor caído", "Sin producción", "Old fault resolved"]);
  });

  it("marks one notification read, then all of them", async () => {
    const { user, calls } = renderFrame("user", "/app/dashboard", notificationsApi(unread));
    const banner = await screen.findByRole("banner");
    await user.click(within(banner).getByRole("button", { name: "Notifications" }));
    await user.click(await within(banner).findByRole("button", { name: "Mark read: No production" }));
    await waitFor(() => expect(within(banner).getByTestId("bell-count")).toHaveTextContent("1"));
    expect(calls.filter((c) => c.method === "POST").map((c) => c.body)).toEqual([{ ids: ["n-1"] }]);

    await user.click(within(banner).getByRole("button", { name: "Mark all read" }));
    await waitFor(() => expect(within(banner).queryByTestId("bell-count")).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === "POST").map((c) => c.body)).toEqual([{ ids: ["n-1"] }, {}]);
    expect(within(banner).getByRole("button", { name: "Notifications" })).toHaveAccessibleDescription(
      "0 unread",
    );
    expect(within(banner).getByRole("button", { name: "Mark all read" })).toBeDisabled();
  });

  it("says so when there is nothing, and closes with Escape", async () => {
    const { user } = renderFrame("user", "/app/dashboard", notificationsApi([]));
    const banner = await screen.findByRole("banner");
    const bell = within(banner).getByRole("button", { name: "Notifications" });
    await user.click(bell);
    expect(await within(banner).findByText(/Nothing new/)).toBeInTheDocument();
    await user.keyboard("{Escape}");
    expect(bell).toHaveAttribute("aria-expanded", "false");
    expect(within(banner).queryByText(/Nothing new/)).not.toBeInTheDocument();
  });
});

const members: Member[] = [
  {
    id: "u-1",
    email: "olivia@sunco.test",
    fullName: "Olivia Owner",
    role: "orgOwner",
    permissions: null,
    createdAt: "2026-01-01T00:00:00.000Z",
  },
  {
    id: "u-2",
    email: "eric@sunco.test",
    fullName: "Eric Engineer",
    role: "orgEngineer",
    permissions: null,
    createdAt: "2026-01-01T00:00:00.000Z",
  },
];

const sunfleetAlerts = [
  makeAlert({
    id: "alert-1",
    title: "No production",
    message: "Below 1 % of capacity since 09:30 UTC under irradiance",
    facts: { kind: "no_production", since: "2026-06-01T09:30:00.000Z", thresholdPct: 1 },
    rule: "no_production",
    provider: null,
    code: null,
    lostEnergyKwh: 12.4,
    history: [
      {
        kind: "opened",
        at: "2026-06-01T09:30:00.000Z",
        actorId: null,
        actorName: null,
        rule: "no_production",
        note: "Below 1 % of capacity since 09:30 UTC under irradiance",
        facts: { kind: "no_production", since: "2026-06-01T09:30:00.000Z", thresholdPct: 1 },
      },
    ],
  }),
  makeAlert({
    id: "alert-2",
    title: "Grid fault",
    rule: "vendor_alarm",
    lostEnergyKwh: null,
    severity: "warning",
  }),
];

/** An alerts API that really acknowledges and assigns, recording each action in the history. */
function alertsApi(initial: Alert[]) {
  let alerts = [...initial];
  const act = (id: string, change: (alert: Alert) => Alert) => {
    alerts = alerts.map((a) => (a.id === id ? change(a) : a));
    return { body: alerts.find((a) => a.id === id) };
  };
  return {
    "GET /api/alerts": () => ({ body: alerts }),
    "GET /api/alerts/summary": () => ({ body: summaryOf(alerts) }),
    "GET /api/users": { body: members },
    "POST /api/alerts/alert-1/acknowledge": ({ body }: { body: unknown }) =>
      act("alert-1", (a) => ({
        ...a,
        acknowledgedAt: "2026-06-01T10:00:00.000Z",
        acknowledgedBy: "u-1",
        history: [
          ...a.history,
          {
            kind: "acknowledged",
            at: "2026-06-01T10:00:00.000Z",
            actorId: "u-1",
            actorName: "Olivia Owner",
            rule: null,
            note: (body as { note?: string }).note ?? null,
            facts: null,
          },
        ],
      })),
    "POST /api/alerts/alert-1/assign": ({ body }: { body: unknown }) =>
      act("alert-1", (a) => ({ ...a, assignedTo: (body as { userId: string | null }).userId })),
  };
}

describe("the Alerts screen with Sunfleet alerts", () => {
  it("asks for the most energy lost first and shows each alert's rule and energy lost", async () => {
    const { calls } = renderFrame("orgOwner", "/app/alerts", alertsApi(sunfleetAlerts));
    const list = await screen.findByRole("list", { name: "Alerts" });
    expect(screen.getByLabelText("Sort by")).toHaveValue("lostEnergy");
    expect(calls.some((c) => c.path === "/api/alerts" && c.url.includes("sort=lostEnergy"))).toBe(true);
    const [first, second] = within(list).getAllByRole("listitem");
    // A Sunfleet alert is headed by its rule; a vendor's alarm by the vendor's title beside a "Vendor alarms" badge.
    expect(within(first as HTMLElement).getByRole("heading", { name: "No production" })).toBeInTheDocument();
    expect(within(first as HTMLElement).queryByText("Vendor alarms")).not.toBeInTheDocument();
    expect(within(first as HTMLElement).getByText("Energy lost: 12.4 kWh")).toBeInTheDocument();
    expect(within(second as HTMLElement).getByRole("heading", { name: "Grid fault" })).toBeInTheDocument();
    expect(within(second as HTMLElement).getByText("Vendor alarms")).toBeInTheDocument();
    expect(within(second as HTMLElement).getByText("Energy lost: no estimate")).toBeInTheDocument();
  });

  it("sorts newest first on request", async () => {
    const { user, calls } = renderFrame("orgOwner", "/app/alerts", alertsApi(sunfleetAlerts));
    await screen.findByRole("list", { name: "Alerts" });
    await user.selectOptions(screen.getByLabelText("Sort by"), "newest");
    await waitFor(() => expect(calls.some((c) => c.url.includes("sort=newest"))).toBe(true));
  });

  it("acknowledges with a note, assigns to a member and shows the history", async () => {
    const { user, calls } = renderFrame("orgOwner", "/app/alerts", alertsApi(sunfleetAlerts));
    await screen.findByRole("list", { name: "Alerts" });
    await user.click(screen.getByRole("button", { name: "Acknowledge No production" }));
    await user.type(screen.getByLabelText("Note (optional)"), "Crew on the way");
    await user.click(screen.getByRole("button", { name: "Acknowledge" }));
    await findToast("Alert acknowledged");
    expect(calls.find((c) => c.path === "/api/alerts/alert-1/acknowledge")?.body).toEqual({
      note: "Crew on the way",
    });
    await waitFor(() =>
      expect(screen.queryByRole("button", { name: "Acknowledge No production" })).not.toBeInTheDocument(),
    );
    expect(screen.getByText(/Acknowledged /)).toBeInTheDocument();

    const [assign] = screen.getAllByLabelText("Assigned to");
    await user.selectOptions(assign as HTMLElement, "u-2");
    await findToast("Assignment saved");
    expect(calls.find((c) => c.path === "/api/alerts/alert-1/assign")?.body).toEqual({ userId: "u-2" });
    await waitFor(() => expect(screen.getAllByLabelText("Assigned to")[0]).toHaveValue("u-2"));

    await user.click(screen.getByRole("button", { name: "History of No production" }));
    const history = screen.getByRole("list", { name: "History of No production" });
    const events = within(history)
      .getAllByRole("listitem")
      .map((item) => item.textContent);
    // A rule's entry is worded from its facts; a member's note is quoted as typed.
    expect(events[0]).toMatch(
      /^Opened · .* · rule: No production — Below 1 % of capacity since .* under irradiance$/,
    );
    expect(events[1]).toMatch(/^Acknowledged · .* · Olivia Owner — “Crew on the way”$/);
  });

  it("words a rule's alert and its history in the reader's language, times in their zone", async () => {
    const { user } = renderFrame("orgOwner", "/app/alerts", {
      ...alertsApi(sunfleetAlerts),
      "GET /api/user/preferences": {
        body: { ...defaultPreferences, language: "es", timezone: "Europe/Madrid" },
      },
    });
    const list = await screen.findByRole("list", { name: "Alertas" });
    const [first] = within(list).getAllByRole("listitem");
    const item = first as HTMLElement;
    expect(within(item).getByRole("heading", { name: "Sin producción" })).toBeInTheDocument();
    // 09:30 UTC on 1 June is 11:30 in Madrid; the API's English message is not shown.
    expect(
      within(item).getByText(/^Por debajo del 1 % de la capacidad desde .*11:30 con irradiancia$/),
    ).toBeInTheDocument();
    expect(within(item).queryByText(/capacity/)).not.toBeInTheDocument();
    await user.click(within(item).getByRole("button", { name: /^Historial/ }));
    const history = within(item).getByRole("list", { name: /^Historial/ });
    expect(within(history).getByRole("listitem").textContent).toMatch(
      /— Por debajo del 1 % de la capacidad desde .*11:30 con irradiancia$/,
    );
  });

  it("offers no actions to a user who may not manage alerts", async () => {
    renderFrame("user", "/app/alerts", alertsApi(sunfleetAlerts));
    await screen.findByRole("list", { name: "Alerts" });
    expect(screen.queryByRole("button", { name: /^Acknowledge / })).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Assigned to")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "History of No production" })).toBeInTheDocument();
  });
});

const rules: AlertRule[] = Object.values(defaultAlertRules);

async function openAlertRules(role: Role, patch: Parameters<typeof mockApi>[0][string]) {
  const rendered = renderFrame(role, "/app/dashboard", {
    "GET /api/alert-rules": { body: { rules } },
    "PATCH /api/alert-rules": patch,
  });
  await screen.findByText("No sites yet");
  await rendered.user.click(screen.getByRole("button", { name: "Settings" }));
  const dialog = await screen.findByRole("dialog");
  await rendered.user.click(within(dialog).getByRole("tab", { name: "Alert Rules" }));
  await within(dialog).findByRole("listitem", { name: "Underperformance" });
  return { ...rendered, dialog };
}

describe("alert rule settings", () => {
  it("edits a rule's delay, window and threshold and switches one off", async () => {
    const { user, dialog, calls } = await openAlertRules("orgEngineer", ({ body }) => ({
      body: {
        rules: rules.map((rule) => ({
          ...rule,
          ...((body as { rules: Partial<AlertRule>[] }).rules.find((r) => r.rule === rule.rule) ?? {}),
        })),
      },
    }));
    const under = within(dialog).getByRole("listitem", { name: "Underperformance" });
    await user.clear(within(under).getByLabelText("Window (min)"));
    await user.type(within(under).getByLabelText("Window (min)"), "180");
    await user.clear(within(under).getByLabelText("Threshold (%)"));
    await user.type(within(under).getByLabelText("Threshold (%)"), "75");
    const inverter = within(dialog).getByRole("listitem", { name: "Inverter down" });
    await user.click(within(inverter).getByRole("switch"));
    await user.click(within(dialog).getByRole("button", { name: "Save rules" }));
    await findToast("Alert rules saved");
    const sent = calls.find((c) => c.method === "PATCH")?.body as { rules: Record<string, unknown>[] };
    expect(sent.rules.find((r) => r.rule === "underperformance")).toEqual({
      rule: "underperformance",
      enabled: true,
      delayMinutes: 0,
      clearMinutes: 15,
      windowMinutes: 180,
      thresholdPct: 75,
    });
    expect(sent.rules.find((r) => r.rule === "inverter_down")).toMatchObject({ enabled: false });
    expect(sent.rules.find((r) => r.rule === "vendor_alarm")).toEqual({
      rule: "vendor_alarm",
      enabled: true,
    });
  });

  it("shows what is out of range and sends nothing until it is fixed", async () => {
    const { user, dialog, calls } = await openAlertRules("orgOwner", { body: { rules } });
    const lost = within(dialog).getByRole("listitem", { name: "Communication lost" });
    const delay = within(lost).getByLabelText("Raise after (min)");
    await user.clear(delay);
    await user.type(delay, "2000");
    await user.click(within(dialog).getByRole("button", { name: "Save rules" }));
    expect(delay).toHaveAttribute("aria-invalid", "true");
    expect(delay).toHaveAccessibleDescription("Enter a whole number from 0 to 1440.");
    expect(calls.some((c) => c.method === "PATCH")).toBe(false);
  });

  it("shows the server's validation errors on their fields", async () => {
    const { user, dialog } = await openAlertRules("orgOwner", {
      status: 400,
      body: {
        error: "Invalid input",
        code: "validation_failed",
        details: [{ path: ["rules", 2, "windowMinutes"], message: "Too small", code: "too_small" }],
      },
    });
    await user.click(within(dialog).getByRole("button", { name: "Save rules" }));
    await findToast("The rules were not saved");
    const under = within(dialog).getByRole("listitem", { name: "Underperformance" });
    expect(within(under).getByLabelText("Window (min)")).toHaveAccessibleDescription(
      "Enter a whole number from 15 to 1440.",
    );
  });

  it("is read-only for a user", async () => {
    const { dialog } = await openAlertRules("user", { body: { rules } });
    expect(within(dialog).getByText("Only owners and engineers can change the rules.")).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Save rules" })).not.toBeInTheDocument();
    expect(
      within(dialog).getByLabelText("Raise after (min)", { selector: "#rule-no_production-delayMinutes" }),
    ).toBeDisabled();
  });
});
