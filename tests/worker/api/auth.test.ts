import { env } from "cloudflare:workers";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { type AuthResponse, authResponseSchema } from "../../../schema/api/auth";
import {
  addMember,
  call,
  createInvite,
  createOrg,
  expectError,
  expectNothingWritten,
  expectStatus,
  expiredToken,
  login,
  PASSWORD,
  registerOwner,
  sessionIdOf,
  signToken,
  type TestUser,
  tableCounts,
  tamperedToken,
  uniqueEmail,
  unsignedToken,
} from "../helpers";

const register = (body: Record<string, unknown>) => call("/api/auth/register", { method: "POST", body });

const registerBody = (overrides: Record<string, unknown> = {}) => ({
  email: uniqueEmail("reg"),
  password: PASSWORD,
  fullName: "Rita Register",
  companyName: "Rita Solar",
  ...overrides,
});

describe("POST /api/auth/register", () => {
  it("creates an organisation whose creator is orgOwner and reports isFirstUser", async () => {
    const before = await tableCounts();
    const body = registerBody({ companyName: "Brand New Solar" });
    const auth = await expectStatus<AuthResponse>(await register(body), 201);
    expect(authResponseSchema.parse(auth)).toEqual(auth);
    expect(auth).toMatchObject({
      isFirstUser: true,
      company: { name: "Brand New Solar" },
      user: {
        email: body.email,
        fullName: "Rita Register",
        role: "orgOwner",
        user_metadata: { companyName: "Brand New Solar" },
      },
    });
    expect(auth.user.companyId).toEqual(expect.any(String));
    const after = await tableCounts();
    expect(after.organizations).toBe((before.organizations ?? 0) + 1);
    expect(after.users).toBe((before.users ?? 0) + 1);
  });

  it("joins the inviting organisation with the invited role through a valid invite", async () => {
    const owner = await registerOwner("Inviting Co");
    const invite = await createInvite(owner, "orgEngineer");
    const before = await tableCounts();
    const auth = await expectStatus<AuthResponse>(
      await register({
        email: invite.email,
        password: PASSWORD,
        fullName: "Eddie",
        inviteToken: invite.token,
      }),
      201,
    );
    expect(auth).toMatchObject({
      isFirstUser: false,
      company: { name: "Inviting Co" },
      user: { role: "orgEngineer", companyId: owner.orgId, user_metadata: { companyName: "Inviting Co" } },
    });
    expect((await tableCounts()).organizations).toBe(before.organizations);
  });

  it("accepts an invite only once", async () => {
    const owner = await registerOwner();
    const invite = await createInvite(owner, "user");
    await expectStatus(
      await register({
        email: invite.email,
        password: PASSWORD,
        fullName: "First",
        inviteToken: invite.token,
      }),
      201,
    );
    await expectNothingWritten(async () => {
      await expectError(
        await register(registerBody({ inviteToken: invite.token })),
        400,
        /invalid, has expired or has already been used/,
      );
    });
  });

  it("refuses an invite presented with another email and writes nothing", async () => {
    const owner = await registerOwner();
    const invite = await createInvite(owner, "orgEngineer");
    await expectNothingWritten(async () => {
      const body = await expectError(
        await register(registerBody({ email: uniqueEmail("stranger"), inviteToken: invite.token })),
        400,
        /different email/,
      );
      expect(JSON.stringify(body.details)).toContain("email");
    });
    // The invite is still usable by the person it was sent to.
    await expectStatus(
      await register({
        email: invite.email,
        password: PASSWORD,
        fullName: "Right",
        inviteToken: invite.token,
      }),
      201,
    );
  });

  it.each([
    { name: "unknown", setup: async () => "no-such-invite-token" },
    {
      name: "expired",
      setup: async () => {
        const invite = await createInvite(await registerOwner(), "user");
        await env.DB.prepare("UPDATE invites SET expires_at = ? WHERE id = ?")
          .bind(Date.now() - 1000, invite.id)
          .run();
        return invite.token;
      },
    },
    {
      name: "used",
      setup: async () => {
        const invite = await createInvite(await registerOwner(), "user");
        await register({
          email: invite.email,
          password: PASSWORD,
          fullName: "Used",
          inviteToken: invite.token,
        });
        return invite.token;
      },
    },
  ])("answers 400 for an $name invite token and never creates an organisation", async ({ setup }) => {
    const inviteToken = await setup();
    await expectNothingWritten(async () => {
      const body = await expectError(
        await register(registerBody({ inviteToken })),
        400,
        /invalid, has expired or has already been used/,
      );
      expect(body.details).toEqual([expect.objectContaining({ path: ["inviteToken"] })]);
    });
  });

  it("treats emails case-insensitively: a second account differing only in case is a 409", async () => {
    const email = uniqueEmail("Case").replace("case", "CaSe");
    await expectStatus(await register(registerBody({ email })), 201);
    await expectNothingWritten(async () => {
      await expectError(
        await register(registerBody({ email: email.toLowerCase() })),
        409,
        "An account with this email already exists",
      );
      await expectError(await register(registerBody({ email: email.toUpperCase() })), 409);
    });
    const auth = await expectStatus<AuthResponse>(await login(email.toUpperCase()), 200);
    expect(auth.user.email).toBe(email.toLowerCase());
  });

  it("stores a mixed-case email lower-cased", async () => {
    const auth = await expectStatus<AuthResponse>(
      await register(registerBody({ email: "Mixed.Case@Example.COM" })),
      201,
    );
    expect(auth.user.email).toBe("mixed.case@example.com");
  });

  it.each([
    { length: 8, status: 201 },
    { length: 128, status: 201 },
    { length: 7, status: 400 },
    { length: 129, status: 400 },
  ])("answers $status for a password of $length characters", async ({ length, status }) => {
    const before = await tableCounts();
    const res = await register(registerBody({ password: "p".repeat(length) }));
    if (status === 201) {
      await expectStatus(res, 201);
    } else {
      const body = await expectError(res, 400, "Invalid input");
      expect(body.details).toEqual([expect.objectContaining({ path: ["password"] })]);
      expect(await tableCounts()).toEqual(before);
    }
  });

  it("requires a company name when there is no invite", async () => {
    await expectNothingWritten(async () => {
      const body = await expectError(await register(registerBody({ companyName: undefined })), 400);
      expect(body.details).toEqual([expect.objectContaining({ path: ["companyName"] })]);
      await expectError(await register(registerBody({ companyName: "   " })), 400);
    });
  });

  it("never lets a registration choose its role: superAdmin comes only from the command line", async () => {
    await expectNothingWritten(async () => {
      await expectError(await register(registerBody({ role: "superAdmin" })), 400, "Invalid input");
      await expectError(await register(registerBody({ role: "orgOwner", orgId: "someone-elses" })), 400);
    });
  });

  it("rejects an invalid email", async () => {
    await expectNothingWritten(async () => {
      await expectError(await register(registerBody({ email: "not-an-email" })), 400);
    });
  });
});

describe("POST /api/auth/login", () => {
  it("answers a token and the user for the right password", async () => {
    const owner = await registerOwner("Login Co");
    const auth = await expectStatus<AuthResponse>(await login(owner.email), 200);
    expect(authResponseSchema.parse(auth)).toEqual(auth);
    expect(auth).toMatchObject({
      isFirstUser: false,
      company: { name: "Login Co" },
      user: { id: owner.id, role: "orgOwner", companyId: owner.orgId },
    });
    await expectStatus(await call("/api/user/profile", { token: auth.token }), 200);
  });

  it("gives the same 401 'Invalid credentials' for a wrong email and a wrong password", async () => {
    const owner = await registerOwner();
    const wrongEmail = await login(uniqueEmail("nobody"));
    const wrongPassword = await login(owner.email, "wrong password!");
    const a = await expectError(wrongEmail, 401, "Invalid credentials");
    const b = await expectError(wrongPassword, 401, "Invalid credentials");
    expect(a).toEqual(b);
    expect(a).toEqual({ error: "Invalid credentials", code: "invalid_login" });
  });

  it("makes the next attempt wait after 5 failures from one address, even with the right password, with Retry-After", async () => {
    const owner = await registerOwner();
    for (let attempt = 1; attempt <= 5; attempt++) {
      await expectError(await login(owner.email, `wrong-${attempt}`), 401, "Invalid credentials");
    }
    await expectNothingWritten(async () => {
      for (const password of [PASSWORD, "wrong-again"]) {
        const res = await login(owner.email, password);
        const retryAfter = Number(res.headers.get("Retry-After"));
        await expectError(res, 429, /Too many failed sign-in attempts/);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(30);
      }
      // The same email in another case is the same email.
      await expectError(await login(owner.email.toUpperCase()), 429);
    });
  });

  it("does not slow down a different email", async () => {
    const locked = await registerOwner();
    const other = await registerOwner();
    for (let attempt = 1; attempt <= 5; attempt++) await login(locked.email, "wrong password");
    await expectError(await login(locked.email), 429);
    await expectStatus(await login(other.email), 200);
  });

  it("slows down unknown emails too, so probing cannot tell accounts apart", async () => {
    const email = uniqueEmail("ghost");
    for (let attempt = 1; attempt <= 5; attempt++) await expectError(await login(email, "nope"), 401);
    await expectError(await login(email, "nope"), 429);
  });

  it("lets the owner sign in from another address while one address guessing their password waits", async () => {
    const owner = await registerOwner();
    const attacker = { "CF-Connecting-IP": "203.0.113.7" };
    for (let attempt = 1; attempt <= 5; attempt++) {
      await expectError(await login(owner.email, `guess-${attempt}`, attacker), 401);
    }
    await expectError(await login(owner.email, PASSWORD, attacker), 429);
    await expectStatus(await login(owner.email, PASSWORD, { "CF-Connecting-IP": "198.51.100.20" }), 200);
  });

  it("lets no more than 5 of 20 parallel wrong sign-ins from one address reach the password check", async () => {
    const owner = await registerOwner();
    const headers = { "CF-Connecting-IP": "203.0.113.8" };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(owner.email, `parallel-${i}`, headers)),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    const checked = await env.DB.prepare(
      "SELECT count(*) AS n FROM audit_logs WHERE action = 'auth.login_failed' AND actor_email = ?",
    )
      .bind(owner.email)
      .first<{ n: number }>();
    expect(checked?.n).toBe(5);
  });

  it("lets no more than 20 parallel sign-ins from many addresses reach the password check for one email", async () => {
    const owner = await registerOwner();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        login(owner.email, `spread-${i}`, { "CF-Connecting-IP": `192.0.2.${i + 1}` }),
      ),
    );
    expect(answers.filter((res) => res.status === 401)).toHaveLength(20);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(10);
  });

  it("limits one address spraying a password across many accounts to 20 checks", async () => {
    const headers = { "CF-Connecting-IP": "203.0.113.9" };
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => login(uniqueEmail("sprayed"), "Summer2026!", headers)),
    );
    expect(answers.filter((res) => res.status === 401)).toHaveLength(20);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(5);
  });

  it("clears earlier failures after a successful login", async () => {
    const owner = await registerOwner();
    for (let attempt = 1; attempt <= 4; attempt++) await login(owner.email, "wrong password");
    await expectStatus(await login(owner.email), 200);
    for (let attempt = 1; attempt <= 4; attempt++) await login(owner.email, "wrong password");
    await expectStatus(await login(owner.email), 200);
  });

  it("answers 400 for a body without a password", async () => {
    await expectNothingWritten(async () => {
      await expectError(
        await call("/api/auth/login", { method: "POST", body: { email: uniqueEmail() } }),
        400,
      );
    });
  });
});

describe("session tokens", () => {
  it("are HS256 JWTs from issuer sunfleet for the user that expire after 7 days", async () => {
    const owner = await registerOwner();
    expect(decodeProtectedHeader(owner.token).alg).toBe("HS256");
    const claims = decodeJwt(owner.token);
    expect(claims.sub).toBe(owner.id);
    expect(claims.iss).toBe("sunfleet");
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(7 * 24 * 60 * 60);
    expect(Math.abs((claims.iat ?? 0) * 1000 - Date.now())).toBeLessThan(60_000);
  });

  it("accepts a token signed with the configured secret that names a live session of its user", async () => {
    const owner = await registerOwner();
    const token = await signToken({ sub: owner.id, sid: sessionIdOf(owner.token) });
    await expectStatus(await call("/api/user/profile", { token }), 200);
  });

  it.each([
    {
      name: "an expired token",
      token: async (owner: TestUser) => expiredToken(owner),
    },
    {
      name: "a token signed with another secret",
      token: async (owner: TestUser) =>
        signToken({ sub: owner.id, sid: sessionIdOf(owner.token) }, "x".repeat(48)),
    },
    {
      name: "a tampered token",
      token: async (owner: TestUser, other: TestUser) => tamperedToken(owner.token, other.id),
    },
    { name: "an unsigned (alg none) token", token: async (owner: TestUser) => unsignedToken(owner) },
    {
      name: "a token from another issuer",
      token: async (owner: TestUser) =>
        signToken({ sub: owner.id, sid: sessionIdOf(owner.token), iss: "someone-else" }),
    },
    {
      name: "a token without an expiry",
      token: async (owner: TestUser) =>
        signToken({ sub: owner.id, sid: sessionIdOf(owner.token), exp: null }),
    },
    {
      name: "a token without a subject",
      token: async (owner: TestUser) => signToken({ sid: sessionIdOf(owner.token) }),
    },
    { name: "a token without a session", token: async (owner: TestUser) => signToken({ sub: owner.id }) },
    {
      name: "a token naming a session that never existed",
      token: async (owner: TestUser) => signToken({ sub: owner.id, sid: crypto.randomUUID() }),
    },
    {
      name: "a token naming another user's session",
      token: async (owner: TestUser, other: TestUser) =>
        signToken({ sub: owner.id, sid: sessionIdOf(other.token) }),
    },
    {
      name: "a token for a user id that never existed",
      token: async (owner: TestUser) =>
        signToken({ sub: crypto.randomUUID(), sid: sessionIdOf(owner.token) }),
    },
  ])("answers 401 'Not authenticated' for $name", async ({ token }) => {
    const owner = await registerOwner();
    const other = await registerOwner();
    const res = await call("/api/user/profile", { token: await token(owner, other) });
    expect(await expectError(res, 401)).toEqual({ error: "Not authenticated", code: "unauthenticated" });
  });

  it("answers 401 for the token of a user deleted from the database", async () => {
    const owner = await registerOwner();
    const member = await addMember(owner, "user");
    await expectStatus(await call("/api/user/profile", { token: member.token }), 200);
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(member.id).run();
    await expectError(await call("/api/user/profile", { token: member.token }), 401, "Not authenticated");
  });

  it("re-reads the role on every request: a role change applies to the next request with the same token", async () => {
    const { owner, user } = await createOrg();
    await expectError(await call("/api/users", { token: user.token }), 403);
    await expectStatus(
      await call(`/api/users/${user.id}/role`, {
        method: "PATCH",
        token: owner.token,
        body: { role: "orgEngineer" },
      }),
      200,
    );
    await expectStatus(await call("/api/users", { token: user.token }), 200);
    const profile = await expectStatus<{ role: string }>(
      await call("/api/user/profile", { token: user.token }),
      200,
    );
    expect(profile.role).toBe("orgEngineer");
    await expectStatus(
      await call(`/api/users/${user.id}/role`, {
        method: "PATCH",
        token: owner.token,
        body: { role: "user" },
      }),
      200,
    );
    await expectError(await call("/api/users", { token: user.token }), 403);
  });
});

describe("GET /api/health", () => {
  it("answers status ok and the version without a token", async () => {
    const body = await expectStatus<{ status: string; version: string }>(await call("/api/health"), 200);
    expect(body).toEqual({ status: "ok", version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });
});
