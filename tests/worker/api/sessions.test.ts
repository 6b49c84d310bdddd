import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type AccountSession, type AuthResponse, accountSessionSchema } from "../../../schema/api/auth";
import { readVersions } from "../../../worker/data/fleet-directory";
import { createDb } from "../../../worker/lib/db";
import { authenticate } from "../../../worker/services/sessions";
import { sitePayload } from "../fleet-helpers";
import {
  BASE,
  call,
  createOrg,
  expectError,
  expectNothingWritten,
  expectRejectsBadTokens,
  expectStatus,
  login,
  PASSWORD,
  registerOwner,
  sessionIdOf,
  type TestUser,
} from "../helpers";
import { upgrade } from "../socket-helpers";

const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** Signs the user in again (a second device) and answers that session's token. */
async function signInAgain(user: TestUser, headers: Record<string, string> = {}): Promise<TestUser> {
  const auth = await expectStatus<AuthResponse>(await login(user.email, PASSWORD, headers), 200);
  return { ...user, token: auth.token };
}

const profile = (user: TestUser) => call("/api/user/profile", { token: user.token });
const sessionsOf = async (user: TestUser) =>
  expectStatus<AccountSession[]>(await call("/api/auth/sessions", { token: user.token }), 200);
const lastSeen = async (sessionId: string) =>
  (
    await env.DB.prepare("SELECT last_seen_at FROM sessions WHERE id = ?")
      .bind(sessionId)
      .first<{ last_seen_at: number }>()
  )?.last_seen_at;

describe("POST /api/auth/logout", () => {
  it("ends the session: the same token answers 401 afterwards, the user's other sessions go on", async () => {
    const owner = await registerOwner();
    const laptop = await signInAgain(owner);
    await expectStatus(await profile(owner), 200);
    const body = await expectStatus<{ message: string }>(
      await call("/api/auth/logout", { method: "POST", token: owner.token }),
      200,
    );
    expect(body.message).toEqual(expect.any(String));
    expect(await expectError(await profile(owner), 401)).toEqual({
      error: "Not authenticated",
      code: "unauthenticated",
    });
    await expectError(await call("/api/auth/logout", { method: "POST", token: owner.token }), 401);
    await expectStatus(await profile(laptop), 200);
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens({ method: "POST", path: "/api/auth/logout" }, await registerOwner());
  });
});

describe("POST /api/auth/password", () => {
  const change = (user: TestUser, body: unknown) =>
    call("/api/auth/password", { method: "POST", token: user.token, body });

  it("changes the password and ends every other session, keeping the one that changed it", async () => {
    const owner = await registerOwner();
    const phone = await signInAgain(owner);
    const tablet = await signInAgain(owner);
    await expectStatus(
      await change(owner, { currentPassword: PASSWORD, newPassword: "a new long passphrase" }),
      200,
    );

    await expectStatus(await profile(owner), 200);
    await expectError(await profile(phone), 401);
    await expectError(await profile(tablet), 401);
    await expectError(await login(owner.email, PASSWORD), 401, "Invalid credentials");
    await expectStatus(await login(owner.email, "a new long passphrase"), 200);
  });

  it("answers 400 for a wrong current password and changes nothing", async () => {
    const owner = await registerOwner();
    const phone = await signInAgain(owner);
    await expectNothingWritten(async () => {
      const body = await expectError(
        await change(owner, { currentPassword: "not my password", newPassword: "a new long passphrase" }),
        400,
        "The current password is not correct",
      );
      expect(body.details).toEqual([expect.objectContaining({ path: ["currentPassword"] })]);
    });
    await expectStatus(await profile(phone), 200);
    await expectStatus(await login(owner.email, PASSWORD), 200);
  });

  it.each([
    {
      name: "a new password shorter than 8 characters",
      body: { currentPassword: PASSWORD, newPassword: "short" },
    },
    { name: "no current password", body: { newPassword: "a new long passphrase" } },
    {
      name: "an unknown field",
      body: { currentPassword: PASSWORD, newPassword: "a new long passphrase", x: 1 },
    },
  ])("answers 400 for $name and changes nothing", async ({ body }) => {
    const owner = await registerOwner();
    await expectNothingWritten(async () => {
      await expectError(await change(owner, body), 400);
    });
    await expectStatus(await login(owner.email, PASSWORD), 200);
  });

  it("makes a sixth wrong current password wait (429 with Retry-After)", async () => {
    const owner = await registerOwner();
    for (let attempt = 1; attempt <= 5; attempt++) {
      await expectError(
        await change(owner, { currentPassword: `guess-${attempt}`, newPassword: "whatever it is" }),
        400,
      );
    }
    const res = await change(owner, { currentPassword: PASSWORD, newPassword: "a new long passphrase" });
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    await expectError(res, 429);
    await expectStatus(await login(owner.email, PASSWORD), 200);
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens(
      {
        method: "POST",
        path: "/api/auth/password",
        body: { currentPassword: PASSWORD, newPassword: "x".repeat(12) },
      },
      await registerOwner(),
    );
  });
});

describe("GET /api/auth/sessions", () => {
  it("lists the user's sessions with device, address and last seen, marking the current one", async () => {
    const owner = await registerOwner();
    const firefox = await signInAgain(owner, {
      "User-Agent": FIREFOX_LINUX,
      "CF-Connecting-IP": "198.51.100.4",
    });
    const iphone = await signInAgain(owner, {
      "User-Agent": SAFARI_IPHONE,
      "CF-Connecting-IP": "2001:db8::1",
    });
    const other = await registerOwner();

    const sessions = await sessionsOf(firefox);
    for (const session of sessions) expect(accountSessionSchema.parse(session)).toEqual(session);
    expect(sessions).toHaveLength(3);
    const byId = new Map(sessions.map((s) => [s.id, s]));
    expect(byId.get(sessionIdOf(firefox.token))).toMatchObject({
      device: "Firefox on Linux",
      ip: "198.51.100.4",
      current: true,
    });
    expect(byId.get(sessionIdOf(iphone.token))).toMatchObject({
      device: "Safari on iOS",
      ip: "2001:db8::1",
      current: false,
    });
    expect(byId.get(sessionIdOf(owner.token))).toMatchObject({ current: false });
    expect(byId.has(sessionIdOf(other.token))).toBe(false);
    for (const session of sessions)
      expect(Date.parse(session.lastSeenAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("moves last seen forward at most once a minute", async () => {
    const owner = await registerOwner();
    const sessionId = sessionIdOf(owner.token);
    const thirtySecondsAgo = Date.now() - 30_000;
    await env.DB.prepare("UPDATE sessions SET last_seen_at = ? WHERE id = ?")
      .bind(thirtySecondsAgo, sessionId)
      .run();
    await expectStatus(await profile(owner), 200);
    expect(await lastSeen(sessionId)).toBe(thirtySecondsAgo);

    const fiveMinutesAgo = Date.now() - 5 * 60_000;
    await env.DB.prepare("UPDATE sessions SET last_seen_at = ? WHERE id = ?")
      .bind(fiveMinutesAgo, sessionId)
      .run();
    await expectStatus(await profile(owner), 200);
    expect(await lastSeen(sessionId)).toBeGreaterThan(Date.now() - 10_000);
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens({ method: "GET", path: "/api/auth/sessions" }, await registerOwner());
  });
});

describe("idle sessions", () => {
  const HOUR_MS = 60 * 60_000;
  const setLastSeen = (sessionId: string, at: number) =>
    env.DB.prepare("UPDATE sessions SET last_seen_at = ? WHERE id = ?").bind(at, sessionId).run();

  it("refuses a session unused for more than 12 hours with 401; use within them keeps it going", async () => {
    const owner = await registerOwner();
    const idle = await signInAgain(owner);
    await setLastSeen(sessionIdOf(idle.token), Date.now() - 12 * HOUR_MS - 60_000);
    await expectError(await profile(idle), 401);
    await expectError(await call("/api/sites", { token: idle.token }), 401);
    // Gone from the account's session list too; the member signs in again.
    expect((await sessionsOf(owner)).map((s) => s.id)).toEqual([sessionIdOf(owner.token)]);
    await expectStatus(await profile(await signInAgain(owner)), 200);

    // Used a moment before the limit, the session goes on, and that use starts a new 12 hours.
    const active = sessionIdOf(owner.token);
    await setLastSeen(active, Date.now() - 12 * HOUR_MS + 60_000);
    await expectStatus(await profile(owner), 200);
    expect(await lastSeen(active)).toBeGreaterThan(Date.now() - 10_000);
    await expectStatus(await profile(owner), 200);
  });

  it("refuses a live socket upgrade for an idle session", async () => {
    const owner = await registerOwner();
    await setLastSeen(sessionIdOf(owner.token), Date.now() - 13 * HOUR_MS);
    const res = await upgrade(`sunfleet, ${owner.token}`);
    expect(res.status).toBe(401);
    await res.arrayBuffer();
  });
});

describe("DELETE /api/auth/sessions", () => {
  it("signs out everywhere else: every other session answers 401, the current one goes on", async () => {
    const owner = await registerOwner();
    const phone = await signInAgain(owner);
    const tablet = await signInAgain(owner);
    const body = await expectStatus<{ ended: number }>(
      await call("/api/auth/sessions", { method: "DELETE", token: tablet.token }),
      200,
    );
    expect(body.ended).toBe(2);
    await expectStatus(await profile(tablet), 200);
    await expectError(await profile(owner), 401);
    await expectError(await profile(phone), 401);
    expect((await sessionsOf(tablet)).map((s) => s.id)).toEqual([sessionIdOf(tablet.token)]);
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens({ method: "DELETE", path: "/api/auth/sessions" }, await registerOwner());
  });
});

describe("removing a member", () => {
  it("ends every session the member holds", async () => {
    const { owner, engineer } = await createOrg();
    const laptop = await signInAgain(engineer);
    await expectStatus(
      await call(`/api/users/${engineer.id}`, { method: "DELETE", token: owner.token }),
      200,
    );
    await expectError(await profile(engineer), 401);
    await expectError(await profile(laptop), 401);
    const left = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?")
      .bind(engineer.id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});

describe("a signed-in request's sign-in check", () => {
  it("reads D1's counters for the caller's organisation with the session, for the fleet store to check its read models against", async () => {
    const owner = await registerOwner();
    const ctx = { db: createDb(env.DB), env, now: Date.now(), ip: null, origin: BASE };
    const first = await authenticate(ctx, owner.token);
    expect(first?.orgVersions).toEqual(await readVersions(ctx.db, owner.orgId));
    // A site added moves the organisation's counter: the next request reads the new one.
    await call("/api/sites", { method: "POST", token: owner.token, body: sitePayload() });
    const next = await authenticate({ ...ctx, now: Date.now() }, owner.token);
    expect(next?.orgVersions?.org).toBeGreaterThan(first?.orgVersions?.org ?? Number.POSITIVE_INFINITY);
    expect(next?.orgVersions).toEqual(await readVersions(ctx.db, owner.orgId));
  });
});
