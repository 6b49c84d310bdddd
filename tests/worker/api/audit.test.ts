import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type AuditEntry, type AuditPage, auditPageSchema } from "../../../schema/api/audit";
import type { AuthResponse } from "../../../schema/api/auth";
import {
  addMember,
  auditLog,
  call,
  createInvite,
  createOrg,
  createSuperAdmin,
  entriesFor,
  expectError,
  expectNothingWritten,
  expectRejectsBadTokens,
  expectStatus,
  login,
  PASSWORD,
  registerOwner,
  type TestUser,
  uniqueEmail,
} from "../helpers";

const ip = (address: string) => ({ "CF-Connecting-IP": address });

/** The only entry with this action, asserting there is exactly one. */
function single(page: AuditPage, action: string): AuditEntry {
  const entries = entriesFor(page, action);
  expect(entries, `${action} entries: ${JSON.stringify(page.logs.map((e) => e.action))}`).toHaveLength(1);
  return entries[0] as AuditEntry;
}

function expectRecentTime(entry: AuditEntry, since: number) {
  const at = Date.parse(entry.createdAt);
  expect(entry.createdAt).toMatch(/Z$/);
  expect(at).toBeGreaterThanOrEqual(since - 1000);
  expect(at).toBeLessThanOrEqual(Date.now() + 1000);
}

describe("the audit log records who did what to what, when and from where", () => {
  it("records registration: the organisation's creation and the account", async () => {
    const since = Date.now();
    const email = uniqueEmail("audited");
    const auth = await expectStatus<AuthResponse>(
      await call("/api/auth/register", {
        method: "POST",
        body: { email, password: PASSWORD, fullName: "Audrey", companyName: "Audit Co" },
        headers: ip("203.0.113.10"),
      }),
      201,
    );
    const owner: TestUser = {
      id: auth.user.id,
      email,
      token: auth.token,
      orgId: auth.user.companyId ?? "",
      role: "orgOwner",
    };
    const page = await auditLog(owner);
    const created = single(page, "org.create");
    expect(created).toMatchObject({
      orgId: owner.orgId,
      actorId: owner.id,
      actorEmail: email,
      targetType: "organization",
      targetId: owner.orgId,
      ip: "203.0.113.10",
    });
    expectRecentTime(created, since);
    expect(single(page, "auth.register")).toMatchObject({
      actorId: owner.id,
      actorEmail: email,
      targetType: "user",
      targetId: owner.id,
      ip: "203.0.113.10",
    });
  });

  it("records a sign-in, a failed sign-in and a sign-out", async () => {
    const { owner, user } = await createOrg();
    const since = Date.now();
    await expectStatus(await login(user.email, PASSWORD, ip("203.0.113.20")), 200);
    await expectError(await login(user.email, "wrong password", ip("203.0.113.21")), 401);
    await expectStatus(
      await call("/api/auth/logout", { method: "POST", token: user.token, headers: ip("203.0.113.22") }),
      200,
    );
    const page = await auditLog(owner, `&actorEmail=${encodeURIComponent(user.email)}`);
    const signIns = entriesFor(page, "auth.login").filter((e) => e.ip === "203.0.113.20");
    expect(signIns).toHaveLength(1);
    expect(signIns[0]).toMatchObject({ orgId: owner.orgId, actorId: user.id, actorEmail: user.email });
    const failed = single(page, "auth.login_failed");
    expect(failed).toMatchObject({
      orgId: owner.orgId,
      actorId: user.id,
      actorEmail: user.email,
      ip: "203.0.113.21",
    });
    expectRecentTime(failed, since);
    expect(single(page, "auth.logout")).toMatchObject({ actorId: user.id, ip: "203.0.113.22" });
    // No password, good or bad, is ever recorded.
    expect(JSON.stringify(page)).not.toContain("wrong password");
    expect(JSON.stringify(page)).not.toContain(PASSWORD);
  });

  it("does not record a client-supplied X-Forwarded-For, which anyone can forge", async () => {
    const { owner, user } = await createOrg();
    await login(user.email, PASSWORD, { "X-Forwarded-For": "192.0.2.5, 10.0.0.1" });
    const page = await auditLog(owner, "&action=auth.login");
    expect(page.logs.map((e) => e.ip)).not.toContain("192.0.2.5");
  });

  it("matches an actor e-mail filter literally: % and _ are not wildcards", async () => {
    const { owner } = await createOrg();
    expect((await auditLog(owner, "&actorEmail=%25")).total).toBe(0);
    expect((await auditLog(owner, "&actorEmail=_")).total).toBe(0);
  });

  it("records invites, their acceptance and their revocation", async () => {
    const { owner, engineer } = await createOrg();
    const invitedEmail = uniqueEmail("inv");
    const invite = await expectStatus<{ invite: { id: string }; inviteLink: string }>(
      await call("/api/members/invite", {
        method: "POST",
        token: engineer.token,
        body: { email: invitedEmail, role: "orgEngineer", permissions: ["sites"] },
        headers: ip("203.0.113.30"),
      }),
      201,
    );
    const token = new URL(invite.inviteLink).searchParams.get("invite") ?? "";
    const joined = await expectStatus<AuthResponse>(
      await call("/api/auth/register", {
        method: "POST",
        body: { email: invitedEmail, password: PASSWORD, fullName: "Newbie", inviteToken: token },
        headers: ip("203.0.113.31"),
      }),
      201,
    );
    const revoked = await createInvite(owner, "user");
    await expectStatus(
      await call(`/api/invites/${revoked.id}`, {
        method: "DELETE",
        token: owner.token,
        headers: ip("203.0.113.32"),
      }),
      200,
    );

    const page = await auditLog(owner);
    const created = entriesFor(page, "invite.create").find((e) => e.targetId === invite.invite.id);
    expect(created).toMatchObject({
      actorId: engineer.id,
      actorEmail: engineer.email,
      targetType: "invite",
      ip: "203.0.113.30",
      details: { email: invitedEmail, role: "orgEngineer" },
    });
    expect(entriesFor(page, "invite.accept").find((e) => e.targetId === invite.invite.id)).toMatchObject({
      actorId: joined.user.id,
      actorEmail: invitedEmail,
      targetType: "invite",
      targetId: invite.invite.id,
      ip: "203.0.113.31",
    });
    expect(entriesFor(page, "auth.register").map((e) => e.actorId)).toContain(joined.user.id);
    expect(single(page, "invite.revoke")).toMatchObject({
      actorId: owner.id,
      targetType: "invite",
      targetId: revoked.id,
      ip: "203.0.113.32",
      details: { email: revoked.email, role: "user" },
    });
    // The secret accept-link token is never in the log.
    expect(JSON.stringify(page)).not.toContain(token);
    expect(JSON.stringify(page)).not.toContain(revoked.token);
  });

  it("records role changes, permission changes and removals with the target", async () => {
    const { owner, engineer, user } = await createOrg();
    await expectStatus(
      await call(`/api/users/${user.id}/role`, {
        method: "PATCH",
        token: owner.token,
        body: { role: "orgEngineer" },
        headers: ip("203.0.113.40"),
      }),
      200,
    );
    await expectStatus(
      await call(`/api/members/${user.id}/permissions`, {
        method: "PUT",
        token: engineer.token,
        body: { permissions: ["sites"] },
        headers: ip("203.0.113.41"),
      }),
      200,
    );
    await expectStatus(
      await call(`/api/members/${user.id}`, {
        method: "DELETE",
        token: owner.token,
        headers: ip("203.0.113.42"),
      }),
      200,
    );
    const page = await auditLog(owner, "&targetType=user");
    expect(single(page, "member.role_change")).toMatchObject({
      actorId: owner.id,
      targetType: "user",
      targetId: user.id,
      ip: "203.0.113.40",
      details: { email: user.email, from: "user", to: "orgEngineer" },
    });
    expect(single(page, "member.permissions_change")).toMatchObject({
      actorId: engineer.id,
      targetId: user.id,
      ip: "203.0.113.41",
      details: { from: null, to: ["sites"] },
    });
    expect(single(page, "member.remove")).toMatchObject({
      actorId: owner.id,
      targetId: user.id,
      ip: "203.0.113.42",
      details: { email: user.email, role: "orgEngineer" },
    });
  });

  it("records preference changes", async () => {
    const { owner, user } = await createOrg();
    await expectStatus(
      await call("/api/user/preferences", {
        method: "PATCH",
        token: user.token,
        body: { language: "es", timezone: "Europe/Amsterdam" },
        headers: ip("203.0.113.50"),
      }),
      200,
    );
    const entry = single(await auditLog(owner), "preferences.update");
    expect(entry).toMatchObject({
      actorId: user.id,
      targetType: "user",
      targetId: user.id,
      ip: "203.0.113.50",
    });
    expect((entry.details as { changed: string[] }).changed.sort()).toEqual(["language", "timezone"]);
  });

  it("records nothing for a refused change", async () => {
    const { owner, user } = await createOrg();
    await expectNothingWritten(async () => {
      await expectError(
        await call(`/api/users/${owner.id}`, {
          method: "DELETE",
          token: user.token,
          headers: ip("203.0.113.60"),
        }),
        403,
      );
    });
    expect((await auditLog(owner)).logs.map((e) => e.ip)).not.toContain("203.0.113.60");
  });
});

describe("GET /api/admin/logs", () => {
  it("answers a page in the contract's shape, newest first", async () => {
    const { owner } = await createOrg();
    const page = await auditLog(owner);
    expect(auditPageSchema.parse(page)).toEqual(page);
    const times = page.logs.map((e) => Date.parse(e.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("filters by action, actor email and target type", async () => {
    const { owner, engineer, user } = await createOrg();
    await createInvite(engineer, "user");
    await login(user.email, "wrong password");
    const byAction = await auditLog(owner, "&action=invite.create");
    expect(byAction.total).toBe(3); // two from createOrg, one above
    expect(new Set(byAction.logs.map((e) => e.action))).toEqual(new Set(["invite.create"]));

    const byActor = await auditLog(owner, `&actorEmail=${encodeURIComponent(engineer.email.toUpperCase())}`);
    expect(byActor.total).toBeGreaterThan(0);
    expect(new Set(byActor.logs.map((e) => e.actorEmail))).toEqual(new Set([engineer.email]));

    const byTarget = await auditLog(owner, "&targetType=invite");
    expect(byTarget.total).toBeGreaterThan(0);
    expect(new Set(byTarget.logs.map((e) => e.targetType))).toEqual(new Set(["invite"]));

    const combined = await auditLog(
      owner,
      `&action=invite.create&actorEmail=${encodeURIComponent(engineer.email)}`,
    );
    expect(combined.total).toBe(1);
  });

  it("filters by time with from and to, both inclusive", async () => {
    const { owner } = await createOrg();
    const all = await auditLog(owner);
    const [first, second, third] = all.logs;
    if (!first || !second || !third) throw new Error("expected at least three entries");
    const times = [Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 2), Date.UTC(2026, 0, 3)];
    for (const [index, entry] of [first, second, third].entries()) {
      await env.DB.prepare("UPDATE audit_logs SET created_at = ? WHERE id = ?")
        .bind(times[index], entry.id)
        .run();
    }
    const window = await auditLog(owner, "&from=2026-01-02T00:00:00Z&to=2026-01-03T00:00:00Z");
    expect(window.logs.map((e) => e.id)).toEqual([third.id, second.id]);
    expect(window.total).toBe(2);
    const fromOffset = await auditLog(
      owner,
      `&from=${encodeURIComponent("2026-01-02T01:00:00+01:00")}&to=2026-01-02T00:00:00Z`,
    );
    expect(fromOffset.logs.map((e) => e.id)).toEqual([second.id]);
    const before = await auditLog(owner, "&to=2026-01-01T12:00:00Z");
    expect(before.logs.map((e) => e.id)).toEqual([first.id]);
  });

  it("pages with page, pageSize and total", async () => {
    const { owner } = await createOrg();
    for (let i = 0; i < 3; i++) await createInvite(owner, "user");
    const all = await auditLog(owner);
    expect(all.total).toBeGreaterThanOrEqual(7);
    const pages: AuditPage[] = [];
    for (let page = 1; page <= Math.ceil(all.total / 3); page++) {
      pages.push(
        await expectStatus<AuditPage>(
          await call(`/api/admin/logs?page=${page}&pageSize=3`, { token: owner.token }),
          200,
        ),
      );
    }
    for (const [index, page] of pages.entries()) {
      expect(page).toMatchObject({ page: index + 1, pageSize: 3, total: all.total });
    }
    expect(pages.flatMap((p) => p.logs.map((e) => e.id))).toEqual(all.logs.map((e) => e.id));
    const beyond = await expectStatus<AuditPage>(
      await call(`/api/admin/logs?page=${pages.length + 1}&pageSize=3`, { token: owner.token }),
      200,
    );
    expect(beyond).toMatchObject({ logs: [], total: all.total });
    const defaults = await expectStatus<AuditPage>(
      await call("/api/admin/logs", { token: owner.token }),
      200,
    );
    expect(defaults).toMatchObject({ page: 1, pageSize: 50 });
  });

  it("is readable by an orgOwner and an orgEngineer, and 403 for a user", async () => {
    const { owner, engineer, user } = await createOrg();
    const ownerView = await auditLog(owner);
    const engineerView = await auditLog(engineer);
    expect(engineerView.total).toBeGreaterThanOrEqual(ownerView.total);
    await expectNothingWritten(async () => {
      await expectError(await call("/api/admin/logs", { token: user.token }), 403);
    });
  });

  it("lets a superAdmin read any organisation's log, and every organisation's without orgId", async () => {
    const a = await registerOwner("Admin View A");
    const b = await registerOwner("Admin View B");
    await addMember(b, "user");
    const stranger = uniqueEmail("stranger");
    await login(stranger, "whatever", ip("203.0.113.70"));
    const admin = await createSuperAdmin();
    const ofA = await auditLog(admin, `&orgId=${a.orgId}`);
    expect(ofA.total).toBeGreaterThan(0);
    expect(new Set(ofA.logs.map((e) => e.orgId))).toEqual(new Set([a.orgId]));
    const ofB = await auditLog(admin, `&orgId=${b.orgId}`);
    expect(ofB.logs.some((e) => e.action === "invite.accept")).toBe(true);
    const everything = await auditLog(admin, `&actorEmail=${encodeURIComponent(stranger)}`);
    // A failed sign-in for an unknown email belongs to no organisation: only the platform view has it.
    expect(everything.logs).toEqual([
      expect.objectContaining({
        action: "auth.login_failed",
        orgId: null,
        actorId: null,
        ip: "203.0.113.70",
      }),
    ]);
    expect((await auditLog(a, `&actorEmail=${encodeURIComponent(stranger)}`)).total).toBe(0);
  });

  it("answers 404 when an organisation member asks for another organisation's log", async () => {
    const a = await registerOwner();
    const b = await registerOwner();
    await expectError(await call(`/api/admin/logs?orgId=${b.orgId}`, { token: a.token }), 404);
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens({ method: "GET", path: "/api/admin/logs" }, await registerOwner());
  });
});
