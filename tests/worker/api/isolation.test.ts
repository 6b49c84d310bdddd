import { beforeAll, describe, expect, it } from "vitest";
import type { AuditPage } from "../../../schema/api/audit";
import type { Invite, Member } from "../../../schema/api/members";
import {
  call,
  createInvite,
  createOrg,
  createRemovedUser,
  createSuperAdmin,
  expectError,
  expectStatus,
  login,
  PASSWORD,
  type Route,
  type TestInvite,
  type TestOrg,
  type TestUser,
  tableCounts,
  userRow,
} from "../helpers";

let orgA: TestOrg;
let orgB: TestOrg;
let inviteB: TestInvite;
let ownerInviteB: TestInvite;

beforeAll(async () => {
  orgA = await createOrg("Org A");
  orgB = await createOrg("Org B");
  inviteB = await createInvite(orgB.owner, "user");
  ownerInviteB = await createInvite(orgB.owner, "orgOwner");
  // Some activity in B's log that A must never see.
  await login(orgB.user.email, "wrong password", { "CF-Connecting-IP": "198.51.100.7" });
  await call("/api/user/preferences", { method: "PATCH", token: orgB.user.token, body: { language: "fr" } });
});

/** Every route that takes an id, aimed at organisation B's rows. */
const routesIntoB = (): Route[] => [
  { method: "PATCH", path: `/api/users/${orgB.user.id}/role`, body: { role: "orgEngineer" } },
  { method: "PATCH", path: `/api/users/${orgB.owner.id}/role`, body: { role: "user" } },
  { method: "DELETE", path: `/api/users/${orgB.user.id}` },
  { method: "DELETE", path: `/api/users/${orgB.owner.id}` },
  { method: "DELETE", path: `/api/members/${orgB.engineer.id}` },
  { method: "PUT", path: `/api/members/${orgB.engineer.id}/permissions`, body: { permissions: [] } },
  { method: "DELETE", path: `/api/invites/${inviteB.id}` },
  { method: "DELETE", path: `/api/invites/${ownerInviteB.id}` },
  { method: "GET", path: `/api/admin/logs?orgId=${orgB.owner.orgId}` },
];

describe.each(["owner", "engineer"] as const)("organisation A's %s", (who) => {
  const actor = () => orgA[who];

  it("answers 404 for every id of organisation B and changes nothing", async () => {
    const before = await tableCounts();
    const rows = await Promise.all([orgB.owner, orgB.engineer, orgB.user].map((u) => userRow(u.id)));
    for (const route of routesIntoB()) {
      const res = await call(route.path, { method: route.method, token: actor().token, body: route.body });
      const text = await res.text();
      expect(res.status, `${route.method} ${route.path}: ${text}`).toBe(404);
      expect(JSON.parse(text).error).toMatch(/not found/);
    }
    expect(await tableCounts()).toEqual(before);
    expect(await Promise.all([orgB.owner, orgB.engineer, orgB.user].map((u) => userRow(u.id)))).toEqual(rows);
    const pendingB = await expectStatus<Invite[]>(
      await call("/api/invites", { token: orgB.owner.token }),
      200,
    );
    expect(pendingB.map((i) => i.id).sort()).toEqual([inviteB.id, ownerInviteB.id].sort());
  });

  it.each(["/api/users", "/api/members"])("sees only organisation A's members in %s", async (path) => {
    const members = await expectStatus<Member[]>(await call(path, { token: actor().token }), 200);
    expect(members.map((m) => m.id).sort()).toEqual([orgA.owner.id, orgA.engineer.id, orgA.user.id].sort());
  });

  it("sees only organisation A's invites", async () => {
    const invites = await expectStatus<Invite[]>(await call("/api/invites", { token: actor().token }), 200);
    const ids = invites.map((i) => i.id);
    expect(ids).not.toContain(inviteB.id);
    expect(ids).not.toContain(ownerInviteB.id);
  });

  it("sees only organisation A's audit log", async () => {
    const page = await expectStatus<AuditPage>(
      await call("/api/admin/logs?pageSize=200", { token: actor().token }),
      200,
    );
    expect(page.logs.length).toBeGreaterThan(0);
    expect(page.total).toBe(page.logs.length);
    expect(new Set(page.logs.map((entry) => entry.orgId))).toEqual(new Set([orgA.owner.orgId]));
    const bIds = [orgB.owner.id, orgB.engineer.id, orgB.user.id, inviteB.id, ownerInviteB.id];
    for (const entry of page.logs) {
      expect(bIds).not.toContain(entry.actorId);
      expect(bIds).not.toContain(entry.targetId);
    }
    // Filters cannot reach across either.
    const filtered = await expectStatus<AuditPage>(
      await call(`/api/admin/logs?actorEmail=${encodeURIComponent(orgB.user.email)}`, {
        token: actor().token,
      }),
      200,
    );
    expect(filtered).toMatchObject({ logs: [], total: 0 });
  });
});

describe("invites across organisations", () => {
  it("organisation B's invite token does not let someone else join B", async () => {
    const before = await tableCounts();
    await expectError(
      await call("/api/auth/register", {
        method: "POST",
        body: {
          email: "intruder@example.com",
          password: PASSWORD,
          fullName: "Intruder",
          inviteToken: inviteB.token,
        },
      }),
      400,
    );
    expect(await tableCounts()).toEqual(before);
    const removed = await createRemovedUser();
    const afterSetup = await tableCounts();
    await expectError(
      await call("/api/auth/accept-invite", {
        method: "POST",
        token: removed.token,
        body: { inviteToken: inviteB.token },
      }),
      400,
    );
    expect(await tableCounts()).toEqual(afterSetup);
    expect((await userRow(removed.id))?.org_id).toBeNull();
  });

  it("a member of B invited into A cannot join A through the invite", async () => {
    // The invite is answered as any other (it must not tell that the address has an account)...
    const invite = await createInvite(orgA.owner, "user", { email: orgB.user.email });
    // ...but accepting it is refused while the member belongs to B, and changes nothing.
    const before = await tableCounts();
    await expectError(
      await call("/api/auth/accept-invite", {
        method: "POST",
        token: orgB.user.token,
        body: { inviteToken: invite.token },
      }),
      409,
    );
    expect(await tableCounts()).toEqual(before);
    expect(await userRow(orgB.user.id)).toMatchObject({ org_id: orgB.user.orgId, role: "user" });
  });
});

describe("the platform superAdmin", () => {
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createSuperAdmin();
  });

  it("reads exactly the organisation named by orgId", async () => {
    for (const org of [orgA, orgB]) {
      const page = await expectStatus<AuditPage>(
        await call(`/api/admin/logs?pageSize=200&orgId=${org.owner.orgId}`, { token: admin.token }),
        200,
      );
      expect(page.total).toBeGreaterThan(0);
      expect(new Set(page.logs.map((entry) => entry.orgId))).toEqual(new Set([org.owner.orgId]));
    }
  });

  it("touches no organisation's members or invites", async () => {
    const before = await tableCounts();
    for (const route of routesIntoB().filter((r) => r.method !== "GET")) {
      await expectError(
        await call(route.path, { method: route.method, token: admin.token, body: route.body }),
        403,
      );
    }
    await expectError(await call("/api/users", { token: admin.token }), 403);
    await expectError(await call("/api/invites", { token: admin.token }), 403);
    expect(await tableCounts()).toEqual(before);
  });
});
