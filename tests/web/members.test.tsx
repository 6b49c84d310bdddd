import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Invite, Member } from "../../schema/api/members";
import type { Role } from "../../schema/roles";
import { findToast, makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";

const owner = makeProfile({ id: "u-owner", role: "orgOwner", email: "olivia@sunco.example" });
const engineer = makeProfile({ id: "u-eng", role: "orgEngineer", email: "eric@sunco.example" });

const members: Member[] = [
  {
    id: "u-owner",
    email: "olivia@sunco.example",
    fullName: "Olivia Owner",
    role: "orgOwner",
    permissions: null,
    createdAt: "2026-01-05T10:00:00.000Z",
  },
  {
    id: "u-eng",
    email: "eric@sunco.example",
    fullName: "Eric Engineer",
    role: "orgEngineer",
    permissions: null,
    createdAt: "2026-02-01T10:00:00.000Z",
  },
  {
    id: "u-user",
    email: "uma@sunco.example",
    fullName: "Uma User",
    role: "user",
    permissions: null,
    createdAt: "2026-03-01T10:00:00.000Z",
  },
];

const pending: Invite[] = [
  {
    id: "inv-1",
    email: "pat@sunco.example",
    role: "user",
    permissions: null,
    expiresAt: "2026-12-01T10:00:00.000Z",
    createdAt: "2026-11-24T10:00:00.000Z",
    invitedBy: "u-owner",
  },
];

function renderUsersPage(actor: typeof owner, extra: Parameters<typeof mockApi>[0] = {}) {
  storeSession(actor);
  const api = mockApi({
    ...signedInApi(actor),
    "GET /api/users": { body: members },
    "GET /api/invites": { body: pending },
    ...extra,
  });
  return { ...renderApp("/app/admin/users"), ...api };
}

async function removeButtonFor(email: string) {
  const row = (await screen.findByText(email)).closest("tr");
  if (!row) throw new Error(`no row for ${email}`);
  const button = within(row).getByRole("button", { name: "Remove" });
  expect(button).toHaveAccessibleDescription(email);
  return button;
}

const roleOptions = (select: HTMLElement) =>
  within(select)
    .getAllByRole("option")
    .map((option) => (option as HTMLOptionElement).value as Role);

describe("user management", () => {
  it("lists members with their role labels and a You badge instead of controls on one's own row", async () => {
    renderUsersPage(owner);
    const ownRow = (await screen.findByText("Olivia Owner")).closest("tr");
    if (!ownRow) throw new Error("own row missing");
    expect(within(ownRow).getByText("You")).toBeInTheDocument();
    expect(within(ownRow).getByText("Organization Owner")).toBeInTheDocument();
    expect(within(ownRow).queryByRole("combobox")).not.toBeInTheDocument();
    expect(within(ownRow).queryByRole("button")).not.toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "uma@sunco.example" })).toHaveValue("user");
  });

  it("offers orgOwner as an invite role only to an orgOwner", async () => {
    renderUsersPage(owner);
    expect(roleOptions(await screen.findByLabelText("Role"))).toEqual(["user", "orgEngineer", "orgOwner"]);
  });

  it("offers an orgEngineer only user and orgEngineer, and no controls over the owner", async () => {
    renderUsersPage(engineer);
    expect(roleOptions(await screen.findByLabelText("Role"))).toEqual(["user", "orgEngineer"]);
    const ownerRow = (await screen.findByText("Olivia Owner")).closest("tr");
    if (!ownerRow) throw new Error("owner row missing");
    expect(within(ownerRow).queryByRole("combobox")).not.toBeInTheDocument();
    expect(within(ownerRow).queryByRole("button", { name: /Remove/ })).not.toBeInTheDocument();
    expect(await removeButtonFor("uma@sunco.example")).toBeInTheDocument();
  });

  it("invites a member and shows the returned link with a Copy button", async () => {
    const inviteLink = "https://fleet.example/login?invite=tok-xyz";
    const { user, calls } = renderUsersPage(owner, {
      "POST /api/users/invite": {
        status: 201,
        body: {
          invite: { ...pending[0], id: "inv-2", email: "new@sunco.example", role: "orgEngineer" },
          inviteLink,
          message: "Invite created",
        },
      },
    });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });

    await user.type(await screen.findByLabelText("Email"), "new@sunco.example");
    await user.selectOptions(screen.getByLabelText("Role"), "orgEngineer");
    await user.click(screen.getByRole("button", { name: "Send Invitation" }));

    expect(await findToast("User invited")).toBeInTheDocument();
    expect(screen.getByText("User invitation sent successfully.")).toBeInTheDocument();
    expect(calls.find((call) => call.path === "/api/users/invite")?.body).toEqual({
      email: "new@sunco.example",
      role: "orgEngineer",
    });
    expect(screen.getByLabelText("Invitation link")).toHaveValue(inviteLink);
    await user.click(screen.getByRole("button", { name: "Copy" }));
    expect(writeText).toHaveBeenCalledWith(inviteLink);
    expect(await screen.findByRole("button", { name: "Copied" })).toBeInTheDocument();
  });

  it("toasts Invitation failed with the server's message", async () => {
    const { user } = renderUsersPage(owner, {
      "POST /api/users/invite": {
        status: 409,
        body: {
          error: "This person is already a member of your organisation",
          code: "conflict",
          details: { reason: "already_member" },
        },
      },
    });
    await user.type(await screen.findByLabelText("Email"), "uma@sunco.example");
    await user.click(screen.getByRole("button", { name: "Send Invitation" }));
    expect(await findToast("Invitation failed")).toBeInTheDocument();
    expect(screen.getByText("This person is already a member of your organisation.")).toBeInTheDocument();
  });

  it("changes a member's role and confirms it", async () => {
    const { user, calls } = renderUsersPage(owner, {
      "PATCH /api/users/u-user/role": { body: { ...members[2], role: "orgEngineer" } },
    });
    await user.selectOptions(
      await screen.findByRole("combobox", { name: "uma@sunco.example" }),
      "orgEngineer",
    );
    expect(await findToast("Role updated")).toBeInTheDocument();
    expect(calls.find((call) => call.method === "PATCH")?.body).toEqual({ role: "orgEngineer" });
  });

  it("asks before removing a member and removes only after confirmation", async () => {
    const { user, calls } = renderUsersPage(owner, {
      "DELETE /api/users/u-user": { body: { message: "removed" } },
    });
    const confirm = vi.spyOn(window, "confirm").mockReturnValueOnce(false).mockReturnValueOnce(true);
    const remove = await removeButtonFor("uma@sunco.example");

    await user.click(remove);
    expect(confirm).toHaveBeenLastCalledWith("Are you sure you want to remove uma@sunco.example?");
    expect(calls.some((call) => call.method === "DELETE")).toBe(false);

    await user.click(remove);
    expect(await findToast("User removed")).toBeInTheDocument();
    expect(screen.getByText("User removed from organization successfully.")).toBeInTheDocument();
    expect(calls.filter((call) => call.method === "DELETE").map((call) => call.path)).toEqual([
      "/api/users/u-user",
    ]);
  });

  it("toasts User removal failed when the server refuses", async () => {
    const { user } = renderUsersPage(owner, {
      "DELETE /api/users/u-user": { status: 403, body: { error: "You do not have permission to do this" } },
    });
    vi.spyOn(window, "confirm").mockReturnValue(true);
    await user.click(await removeButtonFor("uma@sunco.example"));
    expect(await findToast("User removal failed")).toBeInTheDocument();
  });

  it("lists pending invites and revokes one", async () => {
    const { user, calls } = renderUsersPage(owner, {
      "DELETE /api/invites/inv-1": { body: { message: "revoked" } },
    });
    expect(await screen.findByText("pat@sunco.example")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Revoke invitation for pat@sunco.example" }));
    await waitFor(() =>
      expect(calls.some((call) => call.path === "/api/invites/inv-1" && call.method === "DELETE")).toBe(true),
    );
  });

  it("says No users found when the list is empty", async () => {
    renderUsersPage(owner, { "GET /api/users": { body: [] } });
    expect(await screen.findByText("No users found")).toBeInTheDocument();
  });

  it("shows an error with a retry when the list cannot load", async () => {
    renderUsersPage(owner, { "GET /api/users": { status: 500, body: { error: "Database unavailable" } } });
    expect(await screen.findByText("Could not load members")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });

  it("tells a plain user the area is restricted and loads nothing", async () => {
    const plain = makeProfile({ role: "user" });
    const { calls } = renderUsersPage(plain);
    expect(await screen.findByText("Access restricted")).toBeInTheDocument();
    expect(calls.some((call) => call.path === "/api/users")).toBe(false);
  });
});
