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

describe("accepting and revoking one invite at the same time", () => {
  const countRows = async (sql: string, ...binds: unknown[]) =>
    (
      await env.DB.prepare(sql)
        .bind(...binds)
        .first<{ n: number }>()
    )?.n ?? 0;

  it.each([1, 2, 3, 4, 5, 6])("lets exactly one of them win (registration, round %i)", async () => {
    const { owner } = await createOrg();
    const invite = await createInvite(owner, "orgEngineer");
    const [accepted, revoked] = await Promise.all([
      call("/api/auth/register", {
        method: "POST",
        body: { email: invite.email, password: PASSWORD, fullName: "Racer", inviteToken: invite.token },
      }),
      call(`/api/invites/${invite.id}`, { method: "DELETE", token: owner.token }),
    ]);
    const joined = await countRows("SELECT count(*) AS n FROM users WHERE email = ?", invite.email);
    const inviteLeft = await countRows("SELECT count(*) AS n FROM invites WHERE id = ?", invite.id);
    const text = `accept ${accepted.status} ${await accepted.clone().text()} / revoke ${revoked.status} ${await revoked.clone().text()}`;
    if (accepted.status === 201) {
      expect(revoked.status, text).toBe(409);
      expect(joined, text).toBe(1);
      expect(inviteLeft, text).toBe(1);
    } else {
      expect(accepted.status, text).toBe(400);
      expect(revoked.status, text).toBe(200);
      expect(joined, text).toBe(0);
      expect(inviteLeft, text).toBe(0);
      expect(
        await countRows(
          "SELECT count(*) AS n FROM audit_logs WHERE action = 'invite.accept' AND target_id = ?",
          invite.id,
        ),
      ).toBe(0);
    }
  });

  it.each([1, 2, 3, 4, 5, 6])("lets exactly one of them win (signed-in user, round %i)", async () => {
    const { owner } = await createOrg();
    const outsider = await registerOwner("Elsewhere");
    // The outsider leaves their own organisation first, so an invite can bring them in.
    await env.DB.prepare("UPDATE users SET org_id = NULL, role = 'user' WHERE id = ?")
      .bind(outsider.id)
      .run();
    const invite = await createInvite(owner, "user", { email: outsider.email });
    const [accepted, revoked] = await Promise.all([
      call("/api/auth/accept-invite", {
        method: "POST",
        token: outsider.token,
        body: { inviteToken: invite.token },
      }),
      call(`/api/invites/${invite.id}`, { method: "DELETE", token: owner.token }),
    ]);
    const row = await env.DB.prepare("SELECT org_id FROM users WHERE id = ?")
      .bind(outsider.id)
      .first<{ org_id: string | null }>();
    const text = `accept ${accepted.status} ${await accepted.clone().text()} / revoke ${revoked.status} ${await revoked.clone().text()}`;
    if (accepted.status === 200) {
      expect(revoked.status, text).toBe(409);
      expect(row?.org_id, text).toBe(owner.orgId);
    } else {
      expect(accepted.status, text).toBe(400);
      expect(revoked.status, text).toBe(200);
      expect(row?.org_id, text).toBeNull();
    }
  });

  it("answers 409 to revoking an invite that was accepted, which stays accepted", async () => {
    const { owner } = await createOrg();
    const invite = await createInvite(owner, "user");
    const member = await registerWithInvite(invite);
    await expectNothingWritten(async () => {
      await expectError(
        await call(`/api/invites/${invite.id}`, { method: "DELETE", token: owner.token }),
        409,
      );
    });
    await expectStatus(await call("/api/user/profile", { token: member.token }), 200);
  });
});

describe("a member's pending invites", () => {
  const inviteExists = async (inviteId: string) =>
    (
      await env.DB.prepare("SELECT count(*) AS n FROM invites WHERE id = ?")
        .bind(inviteId)
        .first<{ n: number }>()
    )?.n === 1;

  it("end when the member who sent them is removed, and their links stop working", async () => {
    const { owner, engineer } = await createOrg();
    const sent = await createInvite(engineer, "user");
    const ownersOwn = await createInvite(owner, "user");
    await expectStatus(
      await call(`/api/users/${engineer.id}`, { method: "DELETE", token: owner.token }),
      200,
    );
    expect(await inviteExists(sent.id)).toBe(false);
    expect(await inviteExists(ownersOwn.id)).toBe(true);
    await expectError(
      await call("/api/auth/register", {
        method: "POST",
        body: { email: sent.email, password: PASSWORD, fullName: "Too late", inviteToken: sent.token },
      }),
      400,
    );
  });

  it("end when the sender is demoted to a role that cannot send them, and stay for roles it still can", async () => {
    const { owner } = await createOrg();
    const secondOwner = await registerWithInvite(await createInvite(owner, "orgOwner"));
    const ownerInvite = await createInvite(secondOwner, "orgOwner");
    const engineerInvite = await createInvite(secondOwner, "orgEngineer");
    await expectStatus(
      await call(`/api/users/${secondOwner.id}/role`, {
        method: "PATCH",
        token: owner.token,
        body: { role: "orgEngineer" },
      }),
      200,
    );
    expect(await inviteExists(ownerInvite.id)).toBe(false);
    expect(await inviteExists(engineerInvite.id)).toBe(true);

    await expectStatus(
      await call(`/api/users/${secondOwner.id}/role`, {
        method: "PATCH",
        token: owner.token,
        body: { role: "user" },
      }),
      200,
    );
    expect(await inviteExists(engineerInvite.id)).toBe(false);
  });

  it("stay when a role change is refused", async () => {
    const { owner } = await createOrg();
    const invite = await createInvite(owner, "orgOwner");
    // The last owner cannot step down; the invites they sent stay.
    const engineer = await registerWithInvite(await createInvite(owner, "orgEngineer"));
    await expectError(
      await call(`/api/users/${owner.id}/role`, {
        method: "PATCH",
        token: engineer.token,
        body: { role: "user" },
      }),
      403,
    );
    expect(await inviteExists(invite.id)).toBe(true);
  });
});
