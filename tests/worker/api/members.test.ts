import { describe, expect, it } from "vitest";
import { type Member, memberSchema } from "../../../schema/api/members";
import {
  addMember,
  call,
  createInvite,
  createOrg,
  createRemovedUser,
  expectError,
  expectNothingWritten,
  expectRejectsBadTokens,
  expectStatus,
  login,
  registerOwner,
  type TestUser,
  uniqueEmail,
  userRow,
} from "../helpers";

const list = async (actor: TestUser, path: "/api/users" | "/api/members") =>
  expectStatus<Member[]>(await call(path, { token: actor.token }), 200);

describe.each(["/api/users", "/api/members"] as const)("GET %s", (path) => {
  it("lists every member of the caller's organisation with id, email, name, role, permissions and createdAt", async () => {
    const { owner, engineer, user } = await createOrg("List Co");
    const members = await list(owner, path);
    for (const member of members) expect(memberSchema.strict().parse(member)).toEqual(member);
    expect(members.map((m) => [m.email, m.role]).sort()).toEqual(
      [
        [owner.email, "orgOwner"],
        [engineer.email, "orgEngineer"],
        [user.email, "user"],
      ].sort(),
    );
    expect(await list(engineer, path)).toEqual(members);
  });

  it("no longer lists a removed member", async () => {
    const { owner, user } = await createOrg();
    await expectStatus(await call(`/api/users/${user.id}`, { method: "DELETE", token: owner.token }), 200);
    expect((await list(owner, path)).map((m) => m.id)).not.toContain(user.id);
  });

  it("never shows password material", async () => {
    const { owner } = await createOrg();
    const text = await (await call(path, { token: owner.token })).text();
    expect(text).not.toMatch(/password|salt|hash/i);
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens({ method: "GET", path }, await registerOwner());
  });
});

describe.each(["/api/users/invite", "/api/members/invite"] as const)("POST %s", (path) => {
  it("creates a pending invite with the role and permissions asked for", async () => {
    const { owner } = await createOrg();
    const invite = await createInvite(owner, "orgEngineer", { permissions: ["audit", "users"], path });
    expect(invite.created.invite).toMatchObject({
      email: invite.email,
      role: "orgEngineer",
      permissions: ["audit", "users"],
      invitedBy: owner.id,
    });
    const pending = await expectStatus<{ id: string }[]>(
      await call("/api/invites", { token: owner.token }),
      200,
    );
    expect(pending.map((i) => i.id)).toContain(invite.id);
  });

  it("lower-cases the invited email", async () => {
    const { owner } = await createOrg();
    const invite = await createInvite(owner, "user", { email: "Mixed.Invite@Example.COM", path });
    expect(invite.created.invite.email).toBe("mixed.invite@example.com");
  });

  it("answers 409 for someone already in the organisation", async () => {
    const { owner, user } = await createOrg();
    await expectNothingWritten(async () => {
      await expectError(
        await call(path, {
          method: "POST",
          token: owner.token,
          body: { email: user.email.toUpperCase(), role: "user" },
        }),
        409,
      );
    });
  });

  it("answers 409 for an email with a pending invite", async () => {
    const { owner, engineer } = await createOrg();
    const invite = await createInvite(owner, "user", { path });
    await expectNothingWritten(async () => {
      await expectError(
        await call(path, {
          method: "POST",
          token: engineer.token,
          body: { email: invite.email, role: "user" },
        }),
        409,
        "An invite for this email is already pending",
      );
    });
  });

  it("invites a removed user, who has an account but no organisation", async () => {
    const { owner } = await createOrg();
    const removed = await createRemovedUser();
    const invite = await createInvite(owner, "user", { email: removed.email, path });
    expect(invite.created.invite.email).toBe(removed.email);
  });

  it("answers an address of another organisation's member as any other, and that member cannot join through it", async () => {
    const { owner } = await createOrg();
    const elsewhere = await registerOwner("Elsewhere Solar");
    const taken = await createInvite(owner, "user", { email: elsewhere.email, path });
    const unknown = await createInvite(owner, "user", { path });
    // The same answer, word for word but the address: nothing tells that the address has an account.
    const shape = (invite: typeof taken) =>
      JSON.stringify({
        ...invite.created,
        inviteLink: "",
        invite: { ...invite.created.invite, id: "", email: "" },
      })
        .replaceAll(invite.email, "ADDRESS")
        .replace(/"createdAt":"[^"]*"|"expiresAt":"[^"]*"/g, "");
    expect(shape(taken)).toBe(shape(unknown));

    // Accepting stays safe: signed in, the member belongs to an organisation already; signing up, the address is taken.
    const accepted = await expectError(
      await call("/api/auth/accept-invite", {
        method: "POST",
        token: elsewhere.token,
        body: { inviteToken: taken.token },
      }),
      409,
    );
    expect(accepted.details).toEqual({ reason: "already_in_organisation" });
    const registered = await expectError(
      await call("/api/auth/register", {
        method: "POST",
        body: {
          email: elsewhere.email,
          password: "another password",
          fullName: "X",
          inviteToken: taken.token,
        },
      }),
      409,
    );
    expect(registered.details).toEqual({ reason: "email_taken" });
    expect(await userRow(elsewhere.id)).toMatchObject({ org_id: elsewhere.orgId, role: "orgOwner" });
  });

  it("answers 400 for a role that does not exist or a bad email", async () => {
    const { owner } = await createOrg();
    await expectNothingWritten(async () => {
      await expectError(
        await call(path, {
          method: "POST",
          token: owner.token,
          body: { email: uniqueEmail(), role: "admin" },
        }),
        400,
      );
      await expectError(
        await call(path, { method: "POST", token: owner.token, body: { email: "nope", role: "user" } }),
        400,
      );
      await expectError(
        await call(path, {
          method: "POST",
          token: owner.token,
          body: { email: uniqueEmail(), role: "user", permissions: ["everything"] },
        }),
        400,
      );
    });
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens(
      { method: "POST", path, body: { email: uniqueEmail(), role: "user" } },
      await registerOwner(),
    );
  });
});

describe("PATCH /api/users/{id}/role", () => {
  it("changes the role and answers the updated member", async () => {
    const { owner, user } = await createOrg();
    const member = await expectStatus<Member>(
      await call(`/api/users/${user.id}/role`, {
        method: "PATCH",
        token: owner.token,
        body: { role: "orgEngineer" },
      }),
      200,
    );
    expect(member).toMatchObject({ id: user.id, email: user.email, role: "orgEngineer" });
    expect((await userRow(user.id))?.role).toBe("orgEngineer");
  });

  it("answers 404 for an unknown member id", async () => {
    const { owner } = await createOrg();
    await expectNothingWritten(async () => {
      await expectError(
        await call(`/api/users/${crypto.randomUUID()}/role`, {
          method: "PATCH",
          token: owner.token,
          body: { role: "user" },
        }),
        404,
        "User not found",
      );
    });
  });

  it("answers 400 for an unknown role", async () => {
    const { owner, user } = await createOrg();
    await expectNothingWritten(async () => {
      await expectError(
        await call(`/api/users/${user.id}/role`, {
          method: "PATCH",
          token: owner.token,
          body: { role: "king" },
        }),
        400,
      );
    });
  });

  it("rejects missing, invalid and expired tokens", async () => {
    const { owner, user } = await createOrg();
    await expectRejectsBadTokens(
      { method: "PATCH", path: `/api/users/${user.id}/role`, body: { role: "orgEngineer" } },
      owner,
    );
  });
});

describe("PUT /api/members/{id}/permissions", () => {
  it("sets a member's permissions, de-duplicated", async () => {
    const { owner, engineer } = await createOrg();
    const member = await expectStatus<Member>(
      await call(`/api/members/${engineer.id}/permissions`, {
        method: "PUT",
        token: owner.token,
        body: { permissions: ["sites", "audit", "sites"] },
      }),
      200,
    );
    expect(member.permissions).toEqual(["sites", "audit"]);
    expect(JSON.parse((await userRow(engineer.id))?.permissions ?? "null")).toEqual(["sites", "audit"]);
  });

  it("answers 404 for an unknown member and 400 for an unknown area", async () => {
    const { owner, engineer } = await createOrg();
    await expectNothingWritten(async () => {
      await expectError(
        await call(`/api/members/${crypto.randomUUID()}/permissions`, {
          method: "PUT",
          token: owner.token,
          body: { permissions: [] },
        }),
        404,
      );
      await expectError(
        await call(`/api/members/${engineer.id}/permissions`, {
          method: "PUT",
          token: owner.token,
          body: { permissions: ["root"] },
        }),
        400,
      );
      await expectError(
        await call(`/api/members/${engineer.id}/permissions`, {
          method: "PUT",
          token: owner.token,
          body: {},
        }),
        400,
      );
    });
  });

  it("rejects missing, invalid and expired tokens", async () => {
    const { owner, engineer } = await createOrg();
    await expectRejectsBadTokens(
      { method: "PUT", path: `/api/members/${engineer.id}/permissions`, body: { permissions: [] } },
      owner,
    );
  });
});

describe.each(["users", "members"] as const)("DELETE /api/%s/{id}", (resource) => {
  it("removes the member from the organisation but keeps their account", async () => {
    const { owner, engineer } = await createOrg();
    await expectStatus<{ message: string }>(
      await call(`/api/${resource}/${engineer.id}`, { method: "DELETE", token: owner.token }),
      200,
    );
    expect(await userRow(engineer.id)).toMatchObject({ org_id: null, role: "user", permissions: null });
    // Removal ended the member's sessions; signing in again works and reaches nothing of the organisation.
    await expectError(await call("/api/users", { token: engineer.token }), 401);
    const again = await expectStatus<{ token: string }>(await login(engineer.email), 200);
    await expectError(await call("/api/users", { token: again.token }), 403);
  });

  it("answers 404 for an unknown or already removed member", async () => {
    const { owner, user } = await createOrg();
    await expectStatus(
      await call(`/api/${resource}/${user.id}`, { method: "DELETE", token: owner.token }),
      200,
    );
    await expectNothingWritten(async () => {
      await expectError(
        await call(`/api/${resource}/${user.id}`, { method: "DELETE", token: owner.token }),
        404,
      );
      await expectError(
        await call(`/api/${resource}/${crypto.randomUUID()}`, { method: "DELETE", token: owner.token }),
        404,
      );
    });
  });

  it("rejects missing, invalid and expired tokens", async () => {
    const { owner, user } = await createOrg();
    await expectRejectsBadTokens({ method: "DELETE", path: `/api/${resource}/${user.id}` }, owner);
    expect((await userRow(user.id))?.org_id).toBe(owner.orgId);
  });
});

describe("member ids", () => {
  it("answers 400 for an id longer than any id the API hands out", async () => {
    const { owner } = await createOrg();
    await expectNothingWritten(async () => {
      await expectError(
        await call(`/api/users/${"x".repeat(65)}`, { method: "DELETE", token: owner.token }),
        400,
      );
    });
  });

  it("a member added by an engineer appears in the list for everyone who may read it", async () => {
    const { owner, engineer } = await createOrg();
    const added = await addMember(engineer, "orgEngineer");
    expect((await list(owner, "/api/members")).map((m) => m.id)).toContain(added.id);
  });
});
