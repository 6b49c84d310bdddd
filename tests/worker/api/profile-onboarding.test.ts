import { describe, expect, it } from "vitest";
import { type AuthResponse, type Profile, profileSchema } from "../../../schema/api/auth";
import {
  call,
  createInvite,
  createOrg,
  createRemovedUser,
  createSuperAdmin,
  expectError,
  expectNothingWritten,
  expectRejectsBadTokens,
  expectStatus,
  login,
  PASSWORD,
  registerOwner,
  type TestUser,
  tableCounts,
  userRow,
} from "../helpers";

const profileOf = async (user: TestUser) =>
  expectStatus<Profile>(await call("/api/user/profile", { token: user.token }), 200);

const signup = (user: TestUser, companyName: string) =>
  call("/api/auth/signup", { method: "POST", token: user.token, body: { companyName } });

const acceptInvite = (user: TestUser, inviteToken: string) =>
  call("/api/auth/accept-invite", { method: "POST", token: user.token, body: { inviteToken } });

describe("GET /api/user/profile", () => {
  it("answers exactly the profile fields of an organisation member", async () => {
    const { owner, engineer } = await createOrg("Profile Co");
    const profile = await profileOf(engineer);
    expect(Object.keys(profile).sort()).toEqual(
      [
        "companyId",
        "companyName",
        "email",
        "emailVerified",
        "fullName",
        "id",
        "onboardingRequired",
        "permissions",
        "role",
      ].sort(),
    );
    expect(profileSchema.parse(profile)).toEqual(profile);
    expect(profile).toEqual({
      id: engineer.id,
      email: engineer.email,
      fullName: "orgEngineer person",
      role: "orgEngineer",
      companyName: "Profile Co",
      companyId: owner.orgId,
      onboardingRequired: false,
      permissions: null,
      // Accepting the invite mailed to the address verified it.
      emailVerified: true,
    });
  });

  it("shows a superAdmin without an organisation and without onboarding", async () => {
    const admin = await createSuperAdmin();
    expect(await profileOf(admin)).toMatchObject({
      role: "superAdmin",
      companyId: null,
      companyName: null,
      onboardingRequired: false,
    });
  });

  it("never includes password material", async () => {
    const owner = await registerOwner();
    const text = await (await call("/api/user/profile", { token: owner.token })).text();
    expect(text).not.toMatch(/password|salt|hash|iterations/i);
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens({ method: "GET", path: "/api/user/profile" }, await registerOwner());
  });
});

describe("a removed user", () => {
  it("keeps their account: can still log in and the profile asks for onboarding", async () => {
    const removed = await createRemovedUser();
    const auth = await expectStatus<AuthResponse>(await login(removed.email), 200);
    expect(auth.company).toBeNull();
    expect(auth.user).toMatchObject({ id: removed.id, role: "user", companyId: null });
    const profile = await profileOf({ ...removed, token: auth.token });
    expect(profile).toMatchObject({
      role: "user",
      companyId: null,
      companyName: null,
      onboardingRequired: true,
      permissions: null,
    });
  });

  it("sees no organisation data", async () => {
    const removed = await createRemovedUser();
    await expectError(await call("/api/users", { token: removed.token }), 403);
    await expectError(await call("/api/invites", { token: removed.token }), 403);
    await expectError(await call("/api/admin/logs", { token: removed.token }), 403);
  });
});

describe("POST /api/auth/signup", () => {
  it("creates the removed user's new organisation and makes them its orgOwner", async () => {
    const removed = await createRemovedUser();
    const before = await tableCounts();
    const body = await expectStatus<{ isFirstUser: boolean; company: { name: string } }>(
      await signup(removed, "  Second Chance Solar  "),
      201,
    );
    expect(body).toEqual({ isFirstUser: true, company: { name: "Second Chance Solar" } });
    expect((await tableCounts()).organizations).toBe((before.organizations ?? 0) + 1);
    const profile = await profileOf(removed);
    expect(profile).toMatchObject({
      role: "orgOwner",
      companyName: "Second Chance Solar",
      onboardingRequired: false,
    });
    expect(profile.companyId).toEqual(expect.any(String));
    // As owner of the new organisation they can invite at once, with the same token.
    await createInvite(removed, "orgOwner");
  });

  it("answers 409 for a user who already belongs to an organisation and writes nothing", async () => {
    const { owner, user } = await createOrg();
    await expectNothingWritten(async () => {
      await expectError(await signup(owner, "Another Co"), 409, "You already belong to an organisation");
      await expectError(await signup(user, "Another Co"), 409);
    });
  });

  it("answers 409 for a superAdmin, who never owns an organisation", async () => {
    const admin = await createSuperAdmin();
    await expectNothingWritten(async () => {
      await expectError(await signup(admin, "Admin Co"), 409);
    });
  });

  it("answers 400 for a blank company name", async () => {
    const removed = await createRemovedUser();
    await expectNothingWritten(async () => {
      const body = await expectError(await signup(removed, "   "), 400, "Invalid input");
      expect(body.details).toEqual([expect.objectContaining({ path: ["companyName"] })]);
    });
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens(
      { method: "POST", path: "/api/auth/signup", body: { companyName: "X" } },
      await createRemovedUser(),
    );
  });
});

describe("POST /api/auth/accept-invite", () => {
  it("lets a signed-in user without an organisation join with the invited role", async () => {
    const removed = await createRemovedUser();
    const newOwner = await registerOwner("New Home Co");
    const invite = await createInvite(newOwner, "orgEngineer", { email: removed.email });
    const profile = await expectStatus<Profile>(await acceptInvite(removed, invite.token), 200);
    expect(profile).toMatchObject({
      id: removed.id,
      role: "orgEngineer",
      companyId: newOwner.orgId,
      companyName: "New Home Co",
      onboardingRequired: false,
    });
    expect(await userRow(removed.id)).toMatchObject({ org_id: newOwner.orgId, role: "orgEngineer" });
    // The invite is spent: it no longer shows as pending.
    const pending = await expectStatus<{ id: string }[]>(
      await call("/api/invites", { token: newOwner.token }),
      200,
    );
    expect(pending.map((i) => i.id)).not.toContain(invite.id);
  });

  it("answers 400 for an invite addressed to someone else and writes nothing", async () => {
    const removed = await createRemovedUser();
    const invite = await createInvite(await registerOwner(), "user");
    await expectNothingWritten(async () => {
      await expectError(await acceptInvite(removed, invite.token), 400, /different email/);
    });
  });

  it("answers 400 for an unknown or already used invite", async () => {
    const removed = await createRemovedUser();
    await expectNothingWritten(async () => {
      await expectError(await acceptInvite(removed, "not-a-real-invite"), 400);
    });
    const newOwner = await registerOwner();
    const invite = await createInvite(newOwner, "user", { email: removed.email });
    await expectStatus(await acceptInvite(removed, invite.token), 200);
    // Removed again (which ends their sessions: they sign in anew), the spent invite does not bring them back.
    await expectStatus(
      await call(`/api/users/${removed.id}`, { method: "DELETE", token: newOwner.token }),
      200,
    );
    const signedInAgain = {
      ...removed,
      token: (await expectStatus<AuthResponse>(await login(removed.email), 200)).token,
    };
    await expectNothingWritten(async () => {
      await expectError(await acceptInvite(signedInAgain, invite.token), 400, /already been used/);
    });
  });

  it("answers 409 for a user who already belongs to an organisation", async () => {
    const { user } = await createOrg();
    const otherOwner = await registerOwner();
    const invite = await createInvite(otherOwner, "user");
    await expectNothingWritten(async () => {
      // Checked before the invite itself: a member cannot hop organisations with any token.
      await expectError(await acceptInvite(user, invite.token), 409, "You already belong to an organisation");
      await expectError(await acceptInvite(otherOwner, invite.token), 409);
    });
  });

  it("is the way back in: registering again with the invite answers 409 for an existing account", async () => {
    const removed = await createRemovedUser();
    const invite = await createInvite(await registerOwner(), "user", { email: removed.email });
    await expectNothingWritten(async () => {
      await expectError(
        await call("/api/auth/register", {
          method: "POST",
          body: { email: removed.email, password: PASSWORD, fullName: "Again", inviteToken: invite.token },
        }),
        409,
      );
    });
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens(
      { method: "POST", path: "/api/auth/accept-invite", body: { inviteToken: "x" } },
      await createRemovedUser(),
    );
  });
});
