import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { AccountSession } from "../../schema/api/auth";
import { defaultPreferences, type Preferences } from "../../schema/api/preferences";
import type { Role } from "../../schema/roles";
import { findToast, makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";

const timezones = [
  { value: "UTC", label: "UTC", offset: "UTC+00:00", region: "UTC" },
  { value: "Europe/London", label: "London", offset: "UTC+00:00", region: "Europe" },
  { value: "Europe/Madrid", label: "Madrid", offset: "UTC+01:00", region: "Europe" },
  { value: "America/New_York", label: "New York", offset: "UTC-05:00", region: "America" },
];

const sessions: AccountSession[] = [
  {
    id: "s-here",
    device: "Firefox on Linux",
    ip: "198.51.100.4",
    createdAt: "2026-11-20T08:00:00.000Z",
    lastSeenAt: "2026-11-25T09:30:00.000Z",
    current: true,
  },
  {
    id: "s-phone",
    device: "Safari on iOS",
    ip: null,
    createdAt: "2026-11-18T07:00:00.000Z",
    lastSeenAt: "2026-11-24T18:00:00.000Z",
    current: false,
  },
];

async function openSettings(role: Role, extra: Parameters<typeof mockApi>[0] = {}) {
  const profile = makeProfile({ role });
  storeSession(profile);
  const api = mockApi({
    ...signedInApi(profile),
    "GET /api/timezones": { body: timezones },
    "GET /api/auth/sessions": { body: sessions },
    ...extra,
  });
  const rendered = renderApp("/app/dashboard");
  await screen.findByText("No sites yet");
  await rendered.user.click(screen.getByRole("button", { name: "Settings" }));
  const dialog = await screen.findByRole("dialog");
  // The dialog opens on the Account tab, whose panel loads with it.
  await within(dialog).findByLabelText("Email");
  return { ...rendered, ...api, dialog, profile };
}

describe("settings modal", () => {
  it("has 5 tabs for role user, without Manage Users", async () => {
    const { dialog } = await openSettings("user");
    const tabs = within(dialog).getAllByRole("tab");
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      "Account",
      "Notifications",
      "Alert Rules",
      "Provider Credentials",
      "Sites & Portfolios",
    ]);
  });

  it.each<[Role, number]>([
    ["orgEngineer", 7],
    ["orgOwner", 7],
    ["superAdmin", 6],
  ])(
    "has Manage Users as the sixth tab for %s (%i tabs, API Keys last for organisation managers)",
    async (role, count) => {
      const { dialog } = await openSettings(role, {
        "GET /api/users": { body: [] },
        "GET /api/invites": { body: [] },
      });
      const tabs = within(dialog).getAllByRole("tab");
      expect(tabs).toHaveLength(count);
      expect(tabs[5]).toHaveTextContent("Manage Users");
      if (count === 7) expect(tabs[6]).toHaveTextContent("API Keys");
    },
  );

  it("shows the account details read-only with the email hint", async () => {
    const { dialog } = await openSettings("orgEngineer");
    expect(within(dialog).getByLabelText("Email")).toHaveValue("olivia@sunco.example");
    expect(within(dialog).getByText("Contact your administrator to change your email")).toBeInTheDocument();
    expect(within(dialog).getByText("Organization Engineer")).toBeInTheDocument();
    expect(within(dialog).getByText("SunCo")).toBeInTheDocument();
    expect(within(dialog).getByText("org-1")).toBeInTheDocument();
  });

  it("changes the password with the current one and says the other sessions were signed out", async () => {
    const { dialog, user, calls } = await openSettings("user", {
      "POST /api/auth/password": { body: { message: "Password changed." } },
    });
    await user.type(within(dialog).getByLabelText("Current password"), "old password 1");
    await user.type(within(dialog).getByLabelText("New password"), "new password 22");
    await user.click(within(dialog).getByRole("button", { name: "Change password" }));
    expect(await findToast("Password changed")).toBeInTheDocument();
    expect(calls.find((c) => c.path === "/api/auth/password")?.body).toEqual({
      currentPassword: "old password 1",
      newPassword: "new password 22",
    });
    expect(within(dialog).getByLabelText("Current password")).toHaveValue("");
  });

  it("shows the server's reason when the current password is wrong", async () => {
    const { dialog, user } = await openSettings("user", {
      "POST /api/auth/password": {
        status: 400,
        body: {
          error: "The current password is not correct",
          code: "validation_failed",
          details: [{ path: ["currentPassword"], message: "The current password is not correct" }],
        },
      },
    });
    await user.type(within(dialog).getByLabelText("Current password"), "wrong one");
    await user.type(within(dialog).getByLabelText("New password"), "new password 22");
    await user.click(within(dialog).getByRole("button", { name: "Change password" }));
    expect(await findToast("Password not changed")).toBeInTheDocument();
    expect(await findToast("Some values are not valid: currentPassword")).toBeInTheDocument();
  });

  it("lists where the account is signed in and signs out everywhere else", async () => {
    const { dialog, user, calls } = await openSettings("user", {
      "DELETE /api/auth/sessions": { body: { message: "Signed out of 1 other session(s)", ended: 1 } },
    });
    expect(await within(dialog).findByText("Firefox on Linux")).toBeInTheDocument();
    expect(within(dialog).getByText("Safari on iOS")).toBeInTheDocument();
    expect(within(dialog).getByText("This device")).toBeInTheDocument();
    expect(within(dialog).getByText(/198\.51\.100\.4 · last seen/)).toBeInTheDocument();
    expect(within(dialog).getByText(/Unknown address · last seen/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Sign out everywhere else" }));
    expect(await findToast("Other sessions signed out: 1")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "DELETE" && c.path === "/api/auth/sessions")).toBe(true);
  });

  it("returns to the Account tab after being closed", async () => {
    const { dialog, user } = await openSettings("user", {
      "GET /api/providers": { body: [] },
      "GET /api/credentials": { body: [] },
    });
    await user.click(within(dialog).getByRole("tab", { name: "Provider Credentials" }));
    expect(await within(dialog).findByText("No providers configured yet")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await user.click(screen.getByRole("button", { name: "Settings" }));
    const reopened = await screen.findByRole("dialog");
    expect(within(reopened).getByRole("tab", { name: "Account" })).toHaveAttribute("aria-selected", "true");
    expect(within(reopened).getByLabelText("Email")).toBeInTheDocument();
  });

  it("shows Read Only on Sites & Portfolios for role user and Full Access otherwise", async () => {
    const { dialog, user } = await openSettings("user", {
      "GET /api/sites": { body: [] },
      "GET /api/portfolios": { body: [] },
    });
    await user.click(within(dialog).getByRole("tab", { name: "Sites & Portfolios" }));
    expect(await within(dialog).findByText("No sites available")).toBeInTheDocument();
    expect(within(dialog).getByText("Read Only")).toBeInTheDocument();
    expect(within(dialog).getByText("Configure provider credentials to import sites")).toBeInTheDocument();
  });

  it("saves a switch change as the full preferences object and confirms it", async () => {
    const { dialog, user, calls } = await openSettings("user", {
      "PATCH /api/user/preferences": ({ body }) => ({ body }),
    });
    await user.click(within(dialog).getByRole("tab", { name: "Notifications" }));
    const weekly = await within(dialog).findByRole("switch", { name: "Weekly Digest" });
    expect(weekly).toHaveAttribute("aria-checked", "true");
    await user.click(weekly);

    expect(await findToast("Preferences updated")).toBeInTheDocument();
    expect(screen.getByText("Your notification preferences have been saved.")).toBeInTheDocument();
    const patch = calls.find((call) => call.method === "PATCH");
    expect(patch?.body).toEqual({ ...defaultPreferences, weeklyDigest: false });
    expect(within(dialog).getByRole("switch", { name: "Weekly Digest" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
  });

  it("puts a failed change back and says Update failed", async () => {
    const { dialog, user } = await openSettings("user", {
      "PATCH /api/user/preferences": { status: 500, body: { error: "Database unavailable" } },
    });
    await user.click(within(dialog).getByRole("tab", { name: "Notifications" }));
    await user.click(await within(dialog).findByRole("switch", { name: "Monthly Reports" }));
    expect(await findToast("Update failed")).toBeInTheDocument();
    expect(screen.getByText("Failed to update preferences.")).toBeInTheDocument();
    expect(within(dialog).getByRole("switch", { name: "Monthly Reports" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
  });

  it("lists time zones grouped by region with their offsets and saves the chosen one", async () => {
    const { dialog, user, calls } = await openSettings("user", {
      "PATCH /api/user/preferences": ({ body }) => ({ body }),
    });
    await user.click(within(dialog).getByRole("tab", { name: "Notifications" }));
    const madrid = await within(dialog).findByRole("radio", { name: /Madrid/ });
    expect(madrid.closest("label")).toHaveTextContent("UTC+01:00");
    expect(within(dialog).getByText("America")).toBeInTheDocument();
    expect(within(dialog).getByRole("radio", { name: /^UTC/ })).toBeChecked();

    await user.type(within(dialog).getByRole("searchbox", { name: "Search timezones" }), "york");
    await waitFor(() =>
      expect(within(dialog).queryByRole("radio", { name: /Madrid/ })).not.toBeInTheDocument(),
    );
    await user.click(within(dialog).getByRole("radio", { name: /New York/ }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === "PATCH")?.body).toMatchObject({
        timezone: "America/New_York",
      }),
    );
  });

  it("switches the whole interface to Spanish when Español is chosen", async () => {
    const { dialog, user, calls } = await openSettings("user", {
      "PATCH /api/user/preferences": ({ body }) => ({ body }),
    });
    await user.click(within(dialog).getByRole("tab", { name: "Notifications" }));
    await user.selectOptions(await within(dialog).findByLabelText("Language"), "es");

    expect(await within(dialog).findByRole("tab", { name: "Notificaciones" })).toBeInTheDocument();
    const nav = screen.getByRole("navigation", { name: "Navegación principal" });
    expect(within(nav).getByRole("link", { name: "Panel" })).toBeInTheDocument();
    expect(calls.find((call) => call.method === "PATCH")?.body).toMatchObject({ language: "es" });
  });
});

describe("saved language", () => {
  it("is applied on load from the user's preferences", async () => {
    const profile = makeProfile({ role: "user" });
    storeSession(profile);
    const preferences: Preferences = { ...defaultPreferences, language: "fr" };
    mockApi(signedInApi(profile, preferences));
    renderApp("/app/dashboard");
    expect(await screen.findByText("Aucun site pour l’instant")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Se déconnecter" })).toBeInTheDocument();
  });
});
