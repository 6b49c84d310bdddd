import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type Invite, inviteCreatedSchema, inviteSchema } from "../../../schema/api/members";
import { sha256Hex } from "../../../worker/lib/ids";
import {
  BASE,
  call,
  createInvite,
  createOrg,
  DAY_MS,
  expectError,
  expectNothingWritten,
  expectRejectsBadTokens,
  expectStatus,
  PASSWORD,
  registerOwner,
  registerWithInvite,
  type TestUser,
  tableCounts,
} from "../helpers";

const pending = async (actor: TestUser) =>
  expectStatus<Invite[]>(await call("/api/invites", { token: actor.token }), 200);

const expireInvite = (inviteId: string, at = Date.now() - 1000) =>
  env.DB.prepare("UPDATE invites SET expires_at = ? WHERE id = ?").bind(at, inviteId).run();

describe("an invite", () => {
  it("answers its accept link /login?invite=TOKEN on the app's origin", async () => {
    const { owner } = await createOrg();
    const invite = await createInvite(owner, "user");
    expect(inviteCreatedSchema.parse(invite.created)).toEqual(invite.created);
    const link = new URL(invite.link);
    expect(link.origin).toBe(BASE);
    expect(link.pathname).toBe("/login");
    expect([...link.searchParams.keys()]).toEqual(["invite"]);
    expect(invite.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(invite.created.message).toContain(invite.email);
  });

  it("expires 7 days after it is created", async () => {
    const { owner } = await createOrg();
    const before = Date.now();
    const { created } = await createInvite(owner, "user");
    const createdAt = Date.parse(created.invite.createdAt);
    expect(createdAt).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(created.invite.expiresAt) - createdAt).toBe(7 * DAY_MS);
  });

  it("is stored by the hash of its token, never the token itself", async () => {
    const { owner } = await createOrg();
    const invite = await createInvite(owner, "user");
    const row = await env.DB.prepare("SELECT * FROM invites WHERE id = ?")
      .bind(invite.id)
      .first<Record<string, unknown>>();
    expect(row?.token_hash).toBe(await sha256Hex(invite.token));
    expect(JSON.stringify(row)).not.toContain(invite.token);
  });

  it("can no longer be used once expired, and leaves the pending list", async () => {
    const { owner } = await createOrg();
    const invite = await createInvite(owner, "orgEngineer");
    await expireInvite(invite.id);
    expect((await pending(owner)).map((i) => i.id)).not.toContain(invite.id);
    await expectNothingWritten(async () => {
      await expectError(
        await call("/api/auth/register", {
          method: "POST",
          body: { email: invite.email, password: PASSWORD, fullName: "Late", inviteToken: invite.token },
        }),
        400,
        /has expired/,
      );
    });
  });

  it("is still usable a moment before it expires", async () => {
    const { owner } = await createOrg();
    const invite = await createInvite(owner, "user");
    await expireInvite(invite.id, Date.now() + 60_000);
    const joined = await registerWithInvite(invite);
    expect(joined.orgId).toBe(owner.orgId);
  });

  it("may be sent again once the earlier one has expired", async () => {
    const { owner } = await createOrg();
    const first = await createInvite(owner, "user");
    await expireInvite(first.id);
    const second = await createInvite(owner, "user", { email: first.email });
    expect(second.id).not.toBe(first.id);
  });
});

describe("GET /api/invites", () => {
  it("lists the organisation's pending invites, newest first, without accepted ones", async () => {
    const { owner, engineer } = await createOrg();
    const a = await createInvite(owner, "user");
    const b = await createInvite(engineer, "orgEngineer", { permissions: ["users"] });
    const accepted = await createInvite(owner, "user");
    await registerWithInvite(accepted);
    // Two invites may share a millisecond; make their order explicit.
    await env.DB.prepare("UPDATE invites SET created_at = created_at - 60000 WHERE id = ?").bind(a.id).run();
    const list = await pending(owner);
    for (const invite of list) expect(inviteSchema.strict().parse(invite)).toEqual(invite);
    expect(list.map((i) => i.id)).toEqual([b.id, a.id]);
    expect(list[0]).toMatchObject({
      email: b.email,
      role: "orgEngineer",
      permissions: ["users"],
      invitedBy: engineer.id,
    });
    expect(JSON.stringify(list)).not.toContain(a.token);
    expect(await pending(engineer)).toEqual(list);
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens({ method: "GET", path: "/api/invites" }, await registerOwner());
  });
});

describe("DELETE /api/invites/{id}", () => {
  it("revokes a pending invite, whose link then stops working", async () => {
    const { owner, engineer } = await createOrg();
    const invite = await createInvite(owner, "user");
    const body = await expectStatus<{ message: string }>(
      await call(`/api/invites/${invite.id}`, { method: "DELETE", token: engineer.token }),
      200,
    );
    expect(body.message).toContain(invite.email);
    expect((await pending(owner)).map((i) => i.id)).not.toContain(invite.id);
    const before = await tableCounts();
    await expectError(
      await call("/api/auth/register", {
        method: "POST",
        body: { email: invite.email, password: PASSWORD, fullName: "Too late", inviteToken: invite.token },
      }),
      400,
    );
    expect(await tableCounts()).toEqual(before);
  });

  it("answers 404 for an unknown or already revoked invite", async () => {
    const { owner } = await createOrg();
    const invite = await createInvite(owner, "user");
    await expectStatus(
      await call(`/api/invites/${invite.id}`, { method: "DELETE", token: owner.token }),
      200,
    );
    await expectNothingWritten(async () => {
      await expectError(
        await call(`/api/invites/${invite.id}`, { method: "DELETE", token: owner.token }),
        404,
        "Invite not found",
      );
      await expectError(
        await call(`/api/invites/${crypto.randomUUID()}`, { method: "DELETE", token: owner.token }),
        404,
      );
    });
  });

  it("rejects missing, invalid and expired tokens", async () => {
    const { owner } = await createOrg();
    const invite = await createInvite(owner, "user");
    await expectRejectsBadTokens({ method: "DELETE", path: `/api/invites/${invite.id}` }, owner);
    expect((await pending(owner)).map((i) => i.id)).toContain(invite.id);
  });
});
