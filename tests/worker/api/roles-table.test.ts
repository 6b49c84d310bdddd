import { beforeAll, describe, expect, it } from "vitest";
import type { AuthResponse } from "../../../schema/api/auth";
import type { Member } from "../../../schema/api/members";
import type { Role } from "../../../schema/roles";
import {
  addMember,
  call,
  createInvite,
  createOrg,
  createSuperAdmin,
  expectError,
  expectStatus,
  login,
  type Route,
  registerOwner,
  type TestOrg,
  type TestUser,
  tableCounts,
  uniqueEmail,
  userRow,
} from "../helpers";

type ActorRole = "user" | "orgEngineer" | "orgOwner" | "superAdmin";
const ACTOR_ROLES: ActorRole[] = ["user", "orgEngineer", "orgOwner", "superAdmin"];

interface Fixture extends TestOrg {
  superAdmin: TestUser;
}

interface RouteCase {
  route: string;
  /** Builds the request, creating whatever fresh target it acts on. */
  build: (f: Fixture) => Promise<Route>;
  allowed: readonly ActorRole[];
  status: number;
  /** Sent from a session of its own: the request ends the session it is made with. */
  ownSession?: boolean;
}

const EVERYONE = ACTOR_ROLES;
const ORG_ADMINS = ["orgEngineer", "orgOwner"] as const;
const AUDIT_READERS = ["orgEngineer", "orgOwner", "superAdmin"] as const;

/** A fresh plain member to act on, so every row of the table starts from the same state. */
const freshUser = (f: Fixture) => addMember(f.owner, "user", { prefix: "target" });

const ROUTES: RouteCase[] = [
  {
    route: "GET /api/user/profile",
    build: async () => ({ method: "GET", path: "/api/user/profile" }),
    allowed: EVERYONE,
    status: 200,
  },
  {
    route: "GET /api/user/preferences",
    build: async () => ({ method: "GET", path: "/api/user/preferences" }),
    allowed: EVERYONE,
    status: 200,
  },
  {
    route: "PATCH /api/user/preferences",
    build: async () => ({ method: "PATCH", path: "/api/user/preferences", body: { weeklyDigest: false } }),
    allowed: EVERYONE,
    status: 200,
  },
  {
    route: "GET /api/timezones",
    build: async () => ({ method: "GET", path: "/api/timezones" }),
    allowed: EVERYONE,
    status: 200,
  },
  {
    route: "POST /api/auth/logout",
    build: async () => ({ method: "POST", path: "/api/auth/logout" }),
    allowed: EVERYONE,
    status: 200,
    ownSession: true,
  },
  {
    route: "GET /api/users",
    build: async () => ({ method: "GET", path: "/api/users" }),
    allowed: ORG_ADMINS,
    status: 200,
  },
  {
    route: "GET /api/members",
    build: async () => ({ method: "GET", path: "/api/members" }),
    allowed: ORG_ADMINS,
    status: 200,
  },
  {
    route: "POST /api/users/invite",
    build: async () => ({
      method: "POST",
      path: "/api/users/invite",
      body: { email: uniqueEmail("t"), role: "user" },
    }),
    allowed: ORG_ADMINS,
    status: 201,
  },
  {
    route: "POST /api/members/invite",
    build: async () => ({
      method: "POST",
      path: "/api/members/invite",
      body: { email: uniqueEmail("t"), role: "orgEngineer", permissions: ["users"] },
    }),
    allowed: ORG_ADMINS,
    status: 201,
  },
  {
    route: "PATCH /api/users/{id}/role",
    build: async (f) => ({
      method: "PATCH",
      path: `/api/users/${(await freshUser(f)).id}/role`,
      body: { role: "orgEngineer" },
    }),
    allowed: ORG_ADMINS,
    status: 200,
  },
  {
    route: "PUT /api/members/{id}/permissions",
    build: async (f) => ({
      method: "PUT",
      path: `/api/members/${(await freshUser(f)).id}/permissions`,
      body: { permissions: ["users"] },
    }),
    allowed: ORG_ADMINS,
    status: 200,
  },
  {
    route: "DELETE /api/users/{id}",
    build: async (f) => ({ method: "DELETE", path: `/api/users/${(await freshUser(f)).id}` }),
    allowed: ORG_ADMINS,
    status: 200,
  },
  {
    route: "DELETE /api/members/{id}",
    build: async (f) => ({ method: "DELETE", path: `/api/members/${(await freshUser(f)).id}` }),
    allowed: ORG_ADMINS,
    status: 200,
  },
  {
    route: "GET /api/invites",
    build: async () => ({ method: "GET", path: "/api/invites" }),
    allowed: ORG_ADMINS,
    status: 200,
  },
  {
    route: "DELETE /api/invites/{id}",
    build: async (f) => ({
      method: "DELETE",
      path: `/api/invites/${(await createInvite(f.owner, "user")).id}`,
    }),
    allowed: ORG_ADMINS,
    status: 200,
  },
  {
    route: "GET /api/admin/logs",
    build: async () => ({ method: "GET", path: "/api/admin/logs" }),
    allowed: AUDIT_READERS,
    status: 200,
  },
  {
    route: "GET /api/admin/logs?orgId={own org}",
    build: async (f) => ({ method: "GET", path: `/api/admin/logs?orgId=${f.owner.orgId}` }),
    allowed: AUDIT_READERS,
    status: 200,
  },
];

const TABLE = ROUTES.flatMap((routeCase) =>
  ACTOR_ROLES.map((role) => ({
    ...routeCase,
    role,
    outcome: routeCase.allowed.includes(role) ? `allows (${routeCase.status})` : "forbids (403)",
  })),
);

let fixture: Fixture;
const actorFor = (role: ActorRole): TestUser => {
  if (role === "superAdmin") return fixture.superAdmin;
  if (role === "orgOwner") return fixture.owner;
  return role === "orgEngineer" ? fixture.engineer : fixture.user;
};

beforeAll(async () => {
  fixture = { ...(await createOrg("Table Co")), superAdmin: await createSuperAdmin() };
});

describe("role x route table", () => {
  it.each(TABLE)("$route $outcome for $role", async ({ build, role, allowed, status, ownSession }) => {
    const route = await build(fixture);
    const actor = actorFor(role);
    const token = ownSession
      ? (await expectStatus<AuthResponse>(await login(actor.email), 200)).token
      : actor.token;
    const before = await tableCounts();
    const res = await call(route.path, { method: route.method, token, body: route.body });
    if (allowed.includes(role)) {
      await expectStatus(res, status);
    } else {
      await expectError(res, 403);
      expect(await tableCounts()).toEqual(before);
    }
  });
});

/** Roles acting on members who hold a given role, and the 'You' rule (nobody acts on themselves). */
describe("who may act on whom", () => {
  let org: TestOrg;
  let secondOwner: TestUser;
  beforeAll(async () => {
    org = await createOrg("Hierarchy Co");
    secondOwner = await addMember(org.owner, "orgOwner", { prefix: "owner2" });
  });

  const roleChange = (actor: TestUser, target: TestUser, role: Role) =>
    call(`/api/users/${target.id}/role`, { method: "PATCH", token: actor.token, body: { role } });
  const remove = (actor: TestUser, target: TestUser, path = "users") =>
    call(`/api/${path}/${target.id}`, { method: "DELETE", token: actor.token });
  const invite = (actor: TestUser, role: Role) =>
    call("/api/users/invite", {
      method: "POST",
      token: actor.token,
      body: { email: uniqueEmail("h"), role },
    });

  async function expectForbiddenUnchanged(res: Promise<Response>, target: TestUser | null = null) {
    const before = await tableCounts();
    const row = target ? await userRow(target.id) : null;
    await expectError(await res, 403);
    expect(await tableCounts()).toEqual(before);
    if (target) expect(await userRow(target.id)).toEqual(row);
  }

  it("an orgEngineer invites users and orgEngineers", async () => {
    await expectStatus(await invite(org.engineer, "user"), 201);
    await expectStatus(await invite(org.engineer, "orgEngineer"), 201);
  });

  it("an orgEngineer cannot invite an orgOwner or a superAdmin", async () => {
    await expectForbiddenUnchanged(invite(org.engineer, "orgOwner"));
    await expectForbiddenUnchanged(invite(org.engineer, "superAdmin"));
  });

  it("an orgEngineer changes roles between user and orgEngineer", async () => {
    const target = await addMember(org.owner, "user");
    const promoted = await expectStatus<Member>(await roleChange(org.engineer, target, "orgEngineer"), 200);
    expect(promoted.role).toBe("orgEngineer");
    const demoted = await expectStatus<Member>(await roleChange(org.engineer, target, "user"), 200);
    expect(demoted.role).toBe("user");
    expect((await userRow(target.id))?.role).toBe("user");
  });

  it("an orgEngineer cannot promote anyone to orgOwner", async () => {
    const target = await addMember(org.owner, "user");
    await expectForbiddenUnchanged(roleChange(org.engineer, target, "orgOwner"), target);
  });

  it("an orgEngineer cannot change, narrow or remove an orgOwner", async () => {
    await expectForbiddenUnchanged(roleChange(org.engineer, secondOwner, "user"), secondOwner);
    await expectForbiddenUnchanged(roleChange(org.engineer, secondOwner, "orgEngineer"), secondOwner);
    await expectForbiddenUnchanged(remove(org.engineer, secondOwner), secondOwner);
    await expectForbiddenUnchanged(remove(org.engineer, secondOwner, "members"), secondOwner);
    await expectForbiddenUnchanged(
      call(`/api/members/${secondOwner.id}/permissions`, {
        method: "PUT",
        token: org.engineer.token,
        body: { permissions: [] },
      }),
      secondOwner,
    );
  });

  it("an orgEngineer cannot revoke an invite for an orgOwner", async () => {
    const ownerInvite = await createInvite(org.owner, "orgOwner");
    await expectForbiddenUnchanged(
      call(`/api/invites/${ownerInvite.id}`, { method: "DELETE", token: org.engineer.token }),
    );
  });

  it("an orgEngineer removes another orgEngineer", async () => {
    const target = await addMember(org.owner, "orgEngineer");
    await expectStatus(await remove(org.engineer, target), 200);
    expect((await userRow(target.id))?.org_id).toBeNull();
  });

  it("an orgOwner invites an orgOwner and promotes a member to orgOwner", async () => {
    await expectStatus(await invite(org.owner, "orgOwner"), 201);
    const target = await addMember(org.owner, "orgEngineer", { permissions: ["users"] });
    const promoted = await expectStatus<Member>(await roleChange(org.owner, target, "orgOwner"), 200);
    // An owner is never narrowed by member permissions.
    expect(promoted).toMatchObject({ role: "orgOwner", permissions: null });
    expect(await userRow(target.id)).toMatchObject({ role: "orgOwner", permissions: null });
  });

  it("an orgOwner demotes and removes another orgOwner", async () => {
    const target = await addMember(org.owner, "orgOwner");
    await expectStatus(await roleChange(org.owner, target, "orgEngineer"), 200);
    await expectStatus(await roleChange(org.owner, target, "orgOwner"), 200);
    await expectStatus(await remove(org.owner, target), 200);
    expect(await userRow(target.id)).toMatchObject({ org_id: null, role: "user" });
  });

  it("nobody assigns superAdmin, which is made only from the command line", async () => {
    const target = await addMember(org.owner, "user");
    await expectForbiddenUnchanged(roleChange(org.owner, target, "superAdmin"), target);
    await expectForbiddenUnchanged(invite(org.owner, "superAdmin"));
  });

  it.each([
    ["orgOwner", "change the role of", (o: TestOrg) => roleChange(o.owner, o.owner, "orgEngineer")],
    ["orgOwner", "remove", (o: TestOrg) => remove(o.owner, o.owner)],
    ["orgOwner", "remove (members route)", (o: TestOrg) => remove(o.owner, o.owner, "members")],
    ["orgEngineer", "change the role of", (o: TestOrg) => roleChange(o.engineer, o.engineer, "user")],
    ["orgEngineer", "remove", (o: TestOrg) => remove(o.engineer, o.engineer)],
    [
      "orgEngineer",
      "change the permissions of",
      (o: TestOrg) =>
        call(`/api/members/${o.engineer.id}/permissions`, {
          method: "PUT",
          token: o.engineer.token,
          body: { permissions: null },
        }),
    ],
  ] as const)("an %s cannot %s themselves ('You' rule)", async (_role, _verb, request) => {
    const fresh = await createOrg("You Co");
    const before = await tableCounts();
    const body = await expectError(await request(fresh), 403, /yourself/);
    expect(body.error).toMatch(/^You cannot/);
    expect(await tableCounts()).toEqual(before);
    expect(await userRow(fresh.owner.id)).toMatchObject({ role: "orgOwner", org_id: fresh.owner.orgId });
    expect(await userRow(fresh.engineer.id)).toMatchObject({
      role: "orgEngineer",
      org_id: fresh.owner.orgId,
    });
  });

  it("a user changes nobody's role and removes nobody", async () => {
    const target = await addMember(org.owner, "user");
    await expectForbiddenUnchanged(roleChange(org.user, target, "orgEngineer"), target);
    await expectForbiddenUnchanged(remove(org.user, target), target);
    await expectForbiddenUnchanged(roleChange(org.user, org.user, "orgEngineer"), org.user);
  });

  it("an organisation always keeps an orgOwner: the last one can neither step down nor leave", async () => {
    const a = await registerOwner("Succession Co");
    const b = await addMember(a, "orgOwner");
    // b demotes and removes a; b is now the only owner.
    await expectStatus(await roleChange(b, a, "orgEngineer"), 200);
    await expectStatus(await remove(b, a), 200);
    await expectError(await roleChange(b, b, "orgEngineer"), 403);
    await expectError(await remove(b, b), 403);
    const owners = await call("/api/users", { token: b.token });
    const members = await expectStatus<Member[]>(owners, 200);
    expect(members.filter((m) => m.role === "orgOwner").map((m) => m.id)).toEqual([b.id]);
  });
});

describe("two owners acting on each other at the same moment", () => {
  it.each(["demote", "remove"] as const)(
    "who both %s the other still leave exactly one owner",
    async (verb) => {
      for (let round = 0; round < 5; round++) {
        const a = await registerOwner("Race Co");
        const b = await addMember(a, "orgOwner");
        const act = (actor: TestUser, target: TestUser) =>
          verb === "demote"
            ? call(`/api/users/${target.id}/role`, {
                method: "PATCH",
                token: actor.token,
                body: { role: "user" },
              })
            : call(`/api/users/${target.id}`, { method: "DELETE", token: actor.token });
        const statuses = (await Promise.all([act(a, b), act(b, a)])).map((res) => res.status).sort();
        const owners = (await Promise.all([userRow(a.id), userRow(b.id)])).filter(
          (row) => row?.role === "orgOwner",
        );
        expect(owners, `round ${round}: ${statuses}`).toHaveLength(1);
        expect(statuses[0], `round ${round}`).toBe(200);
        // A removal also ends the removed owner's sessions, so their own request may meet a 401.
        const refusals = verb === "remove" ? [401, 403, 409] : [403, 409];
        expect(refusals, `round ${round}: ${statuses}`).toContain(statuses[1]);
        const action = verb === "demote" ? "member.role_change" : "member.remove";
        const owner = owners[0]?.id === a.id ? a : b;
        const page = await expectStatus<{ logs: { action: string }[] }>(
          await call(`/api/admin/logs?action=${action}`, { token: owner.token }),
          200,
        );
        expect(page.logs, `round ${round}`).toHaveLength(1);
      }
    },
  );
});

describe("member permissions narrow an orgEngineer", () => {
  it("an engineer limited to audit reads the log but can no longer manage users", async () => {
    const { owner } = await createOrg();
    const auditor = await addMember(owner, "orgEngineer", { permissions: ["audit"] });
    await expectStatus(await call("/api/admin/logs", { token: auditor.token }), 200);
    const before = await tableCounts();
    await expectError(await call("/api/users", { token: auditor.token }), 403);
    await expectError(await call("/api/invites", { token: auditor.token }), 403);
    await expectError(
      await call("/api/users/invite", {
        method: "POST",
        token: auditor.token,
        body: { email: uniqueEmail(), role: "user" },
      }),
      403,
    );
    expect(await tableCounts()).toEqual(before);
  });

  it("narrowing takes effect on the engineer's next request, and widening restores it", async () => {
    const { owner, engineer } = await createOrg();
    await expectStatus(await call("/api/admin/logs", { token: engineer.token }), 200);
    const narrowed = await expectStatus<Member>(
      await call(`/api/members/${engineer.id}/permissions`, {
        method: "PUT",
        token: owner.token,
        body: { permissions: ["users", "users"] },
      }),
      200,
    );
    expect(narrowed.permissions).toEqual(["users"]);
    await expectError(await call("/api/admin/logs", { token: engineer.token }), 403);
    await expectStatus(await call("/api/users", { token: engineer.token }), 200);
    await expectStatus(
      await call(`/api/members/${engineer.id}/permissions`, {
        method: "PUT",
        token: owner.token,
        body: { permissions: null },
      }),
      200,
    );
    await expectStatus(await call("/api/admin/logs", { token: engineer.token }), 200);
  });

  it("an orgOwner is never narrowed: setting an owner's permissions is refused", async () => {
    const a = await registerOwner();
    const b = await addMember(a, "orgOwner");
    const before = await tableCounts();
    await expectError(
      await call(`/api/members/${b.id}/permissions`, {
        method: "PUT",
        token: a.token,
        body: { permissions: [] },
      }),
      400,
    );
    expect(await tableCounts()).toEqual(before);
    expect((await userRow(b.id))?.permissions).toBeNull();
  });

  it("a narrowed engineer cannot grant areas they do not hold", async () => {
    const { owner } = await createOrg();
    const narrowed = await addMember(owner, "orgEngineer", { permissions: ["users"] });
    const peer = await addMember(owner, "orgEngineer", { permissions: ["users"] });
    const plain = await addMember(owner, "user");
    const before = await tableCounts();
    const peerBefore = await userRow(peer.id);
    // Widening a peer to every area, or to the audit area, would hand out more than they have.
    for (const permissions of [null, ["audit"], ["users", "audit"]]) {
      await expectError(
        await call(`/api/members/${peer.id}/permissions`, {
          method: "PUT",
          token: narrowed.token,
          body: { permissions },
        }),
        403,
      );
      await expectError(
        await call("/api/members/invite", {
          method: "POST",
          token: narrowed.token,
          body: { email: uniqueEmail("esc"), role: "orgEngineer", permissions },
        }),
        403,
      );
    }
    // Promoting a member who holds every area would do the same.
    await expectError(await roleChangeAs(narrowed, plain, "orgEngineer"), 403);
    expect(await tableCounts()).toEqual(before);
    expect(await userRow(peer.id)).toEqual(peerBefore);
    expect((await userRow(plain.id))?.role).toBe("user");

    // Within their own areas they still act.
    await expectStatus(
      await call(`/api/members/${plain.id}/permissions`, {
        method: "PUT",
        token: narrowed.token,
        body: { permissions: ["users"] },
      }),
      200,
    );
    await expectStatus(await roleChangeAs(narrowed, plain, "orgEngineer"), 200);
    // An invite without permissions inherits the inviter's own areas.
    const invited = await createInvite(narrowed, "orgEngineer");
    expect(invited.created.invite.permissions).toEqual(["users"]);
  });
});

const roleChangeAs = (actor: TestUser, target: TestUser, role: Role) =>
  call(`/api/users/${target.id}/role`, { method: "PATCH", token: actor.token, body: { role } });
