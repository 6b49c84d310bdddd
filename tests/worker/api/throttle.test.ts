import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AuthResponse } from "../../../schema/api/auth";
import { ApiError } from "../../../worker/lib/errors";
import { type ThrottleKey, takeAttempt, throttlePolicies } from "../../../worker/throttle/attempts";
import { delayAfter } from "../../../worker/throttle/delays";
import {
  call,
  createInvite,
  createOrg,
  expectError,
  expectStatus,
  login,
  PASSWORD,
  registerOwner,
  uniqueEmail,
} from "../helpers";

const MINUTE_MS = 60_000;
const counter = (name: string) => env.THROTTLE.get(env.THROTTLE.idFromName(name));

describe("the throttle counter", () => {
  const policy = { free: 3, baseDelayMs: 30_000, maxDelayMs: 4 * MINUTE_MS, forgetAfterMs: 60 * MINUTE_MS };

  it("lets the free attempts through, then makes each wait longer, up to the cap", async () => {
    const stub = counter(`schedule-${crypto.randomUUID()}`);
    const t0 = Date.now();
    for (let i = 0; i < 3; i++) expect(await stub.take(policy, t0)).toEqual({ allowed: true });
    expect(await stub.take(policy, t0)).toEqual({ allowed: false, retryAfterMs: 30_000 });
    // Refused attempts do not lengthen the wait.
    expect(await stub.take(policy, t0 + 10_000)).toEqual({ allowed: false, retryAfterMs: 20_000 });
    let now = t0 + 30_000;
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      expect(await stub.take(policy, now)).toEqual({ allowed: true });
      const refused = await stub.take(policy, now);
      if (refused.allowed) throw new Error("expected a wait");
      waits.push(refused.retryAfterMs);
      now += refused.retryAfterMs;
    }
    expect(waits).toEqual([60_000, 120_000, 240_000, 240_000, 240_000]);
  });

  it("forgets a key after an hour without attempts, and on clear", async () => {
    const stub = counter(`forget-${crypto.randomUUID()}`);
    const t0 = Date.now();
    for (let i = 0; i < 3; i++) await stub.take(policy, t0);
    expect((await stub.take(policy, t0)).allowed).toBe(false);
    expect((await stub.take(policy, t0 + 60 * MINUTE_MS)).allowed).toBe(true);
    for (let i = 0; i < 5; i++) await stub.take(policy, t0 + 60 * MINUTE_MS);
    await stub.clear();
    expect((await stub.take(policy, t0 + 60 * MINUTE_MS)).allowed).toBe(true);
  });

  it("never waits longer than 15 minutes on the sign-in counters, so the owner is never locked out", () => {
    for (const name of ["loginEmailIp", "loginEmail", "loginIp"] as const) {
      const limits = throttlePolicies[name];
      expect(delayAfter(limits, 1000)).toBe(15 * MINUTE_MS);
      expect(limits.forgetAfterMs).toBeGreaterThan(limits.maxDelayMs);
    }
  });
});

describe("sign-up throttling", () => {
  const signUp = (ip: string, email = uniqueEmail("signup")) =>
    call("/api/auth/register", {
      method: "POST",
      headers: { "CF-Connecting-IP": ip },
      body: { email, password: PASSWORD, fullName: "Sam Signup", companyName: "Signup Co" },
    });

  it("makes the 11th sign-up from one address within an hour wait, with Retry-After, and writes nothing", async () => {
    for (let i = 0; i < 10; i++) await expectStatus(await signUp("203.0.113.50"), 201);
    const before = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
    const res = await signUp("203.0.113.50");
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    await expectError(res, 429);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>()).toEqual(before);
    await expectStatus(await signUp("203.0.113.51"), 201);
  });

  it("lets no more than 10 of 14 parallel sign-ups from one address through", async () => {
    const answers = await Promise.all(Array.from({ length: 14 }, () => signUp("203.0.113.52")));
    expect(answers.filter((res) => res.status === 201)).toHaveLength(10);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(4);
  });
});

describe("invite acceptance throttling", () => {
  it("makes a sixth wrong invite token for one e-mail wait, even for the right one", async () => {
    const { owner } = await createOrg();
    const invite = await createInvite(owner, "user");
    const accept = (inviteToken: string) =>
      call("/api/auth/register", {
        method: "POST",
        headers: { "CF-Connecting-IP": "203.0.113.60" },
        body: { email: invite.email, password: PASSWORD, fullName: "Ivy Invited", inviteToken },
      });
    for (let i = 0; i < 5; i++) await expectError(await accept(`guessed-token-${i}`), 400);
    await expectError(await accept(invite.token), 429);
  });
});

describe("sign-in throttling", () => {
  it("lets the owner sign in from another address while one address keeps failing for their e-mail", async () => {
    const victim = await registerOwner("Victim Co");
    const attacker = { "CF-Connecting-IP": "203.0.113.70" };
    const answers: number[] = [];
    for (let i = 0; i < 30; i++)
      answers.push((await login(victim.email, `wrong guess ${i}`, attacker)).status);
    // Five guesses are checked, then the address waits: refused attempts are not counted anywhere.
    expect(answers.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.slice(5).every((status) => status === 429)).toBe(true);
    await expectError(await login(victim.email, PASSWORD, attacker), 429);

    const signedIn = await expectStatus<AuthResponse>(
      await login(victim.email, PASSWORD, { "CF-Connecting-IP": "198.51.100.71" }),
      200,
    );
    expect(signedIn.user.email).toBe(victim.email);
  });

  it("keeps the owner's e-mail open through hours of one address guessing as fast as it is let", async () => {
    const email = uniqueEmail("campaign");
    const keysFrom = (ip: string): ThrottleKey[] => [
      { name: "loginEmailIp", subject: `${email}|${ip}` },
      { name: "loginEmail", subject: email },
      { name: "loginIp", subject: ip },
    ];
    const attempt = async (ip: string, at: number) => {
      try {
        await takeAttempt(env, keysFrom(ip), at, "Too many sign-in attempts");
        return 0;
      } catch (error) {
        if (error instanceof ApiError && error.code === "rate_limited")
          return (error.retryAfterSeconds ?? 1) * 1000;
        throw error;
      }
    };
    const t0 = Date.now();
    let now = t0;
    let allowed = 0;
    let lastAllowed = false;
    // Six hours of guesses from one address, each sent the moment the last wait is over, ending
    // with one that went through; a second later the owner tries from home.
    while (now < t0 + 6 * 60 * MINUTE_MS || !lastAllowed) {
      const waitMs = await attempt("203.0.113.80", now);
      lastAllowed = waitMs === 0;
      if (lastAllowed) allowed++;
      now += waitMs || 1000;
    }
    expect(allowed).toBeGreaterThan(throttlePolicies.loginEmail.free);
    expect(await attempt("198.51.100.81", now)).toBe(0);
  });
});
