import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CaughtMail } from "../../../sandbox/mail";
import type { AuthResponse, Profile, ResendVerificationResponse } from "../../../schema/api/auth";
import { sha256Hex } from "../../../worker/lib/ids";
import {
  call,
  createInvite,
  createOrg,
  expectError,
  expectStatus,
  login,
  PASSWORD,
  registerOwner,
  type TestUser,
  uniqueEmail,
} from "../helpers";
import { accountMailTo, linkIn, mailArriving } from "../mail-helpers";

const NEW_PASSWORD = "a passphrase of my own";

const profileOf = async (token: string) =>
  expectStatus<Profile>(await call("/api/user/profile", { token }), 200);

const verify = (token: string) => call("/api/auth/verify-email", { method: "POST", body: { token } });

const resend = (user: TestUser) =>
  call("/api/auth/verify-email/resend", { method: "POST", token: user.token });

/** The verification mails caught for the address, oldest first. */
const verificationMailsTo = async (email: string) =>
  (await accountMailTo(email)).filter((mail) => mail.text.includes("/verify-email?token="));

const tokenOf = (mail: CaughtMail | undefined) => {
  if (!mail) throw new Error("no verification mail");
  return linkIn(mail, "/verify-email").searchParams.get("token") ?? "";
};

const count = async (sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0;

const createKey = (user: TestUser) =>
  call("/api/api-keys", { method: "POST", token: user.token, body: { name: "ci", scope: "read" } });

const invite = (user: TestUser, email = uniqueEmail("colleague")) =>
  call("/api/users/invite", { method: "POST", token: user.token, body: { email, role: "user" } });

describe("the address verification after sign-up", () => {
  it("mails a link to /verify-email that verifies the address, signs in and works once", async () => {
    const owner = await registerOwner("Proof Solar", undefined, { verified: false });
    expect(await profileOf(owner.token)).toMatchObject({ emailVerified: false });

    const [mail, ...more] = await verificationMailsTo(owner.email);
    expect(more).toEqual([]);
    expect(mail?.to).toEqual([owner.email]);
    expect(mail?.subject).toBe("Confirm your Sunfleet e-mail address");
    const link = linkIn(mail as CaughtMail, "/verify-email");
    expect(link.origin).toBe("http://sunfleet.test");
    const token = tokenOf(mail);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the token's hash is stored, valid 48 hours.
    const stored = await env.DB.prepare(
      "SELECT token_hash, created_at, expires_at FROM email_verifications WHERE user_id = ?",
    )
      .bind(owner.id)
      .all<{ token_hash: string; created_at: number; expires_at: number }>();
    expect(stored.results).toHaveLength(1);
    expect(stored.results[0]?.token_hash).toBe(await sha256Hex(token));
    expect((stored.results[0]?.expires_at ?? 0) - (stored.results[0]?.created_at ?? 0)).toBe(48 * 3_600_000);

    const signedIn = await expectStatus<AuthResponse>(await verify(token), 200);
    expect(signedIn.user).toMatchObject({ id: owner.id, email: owner.email, companyId: owner.orgId });
    expect(signedIn.token).not.toBe(owner.token);
    expect(await profileOf(signedIn.token)).toMatchObject({ id: owner.id, emailVerified: true });
    // The session the sign-up opened goes on.
    expect(await profileOf(owner.token)).toMatchObject({ emailVerified: true });

    const again = await expectError(await verify(token), 400);
    expect(again.error).toMatch(/invalid, has expired or has already been used/);
    expect(await count("SELECT count(*) AS n FROM email_verifications WHERE user_id = ?", owner.id)).toBe(0);
  });

  it("refuses an unknown and an expired link with 400, and the address stays unverified", async () => {
    await expectError(await verify("made-up-token"), 400);
    await expectError(await call("/api/auth/verify-email", { method: "POST", body: {} }), 400);
    const owner = await registerOwner("Late Proof Solar", undefined, { verified: false });
    const token = tokenOf((await verificationMailsTo(owner.email))[0]);
    await env.DB.prepare("UPDATE email_verifications SET expires_at = ? WHERE user_id = ?")
      .bind(Date.now() - 1, owner.id)
      .run();
    const refused = await expectError(await verify(token), 400);
    expect(refused.code).toBe("validation_failed");
    expect(await profileOf(owner.token)).toMatchObject({ emailVerified: false });
  });

  /** Moves the account's links back in time, as if they had been sent `ms` earlier. */
  const backdateLinks = (userId: string, ms: number) =>
    env.DB.prepare("UPDATE email_verifications SET created_at = created_at - ? WHERE user_id = ?")
      .bind(ms, userId)
      .run();

  it("sends again on request, at most once a minute, and every link ends with the first one used", async () => {
    const owner = await registerOwner("Again Solar", undefined, { verified: false });
    // The sign-up's own link counts: a minute must pass.
    await expectError(await resend(owner), 429);
    await backdateLinks(owner.id, 61_000);
    const sent = await expectStatus<ResendVerificationResponse>(await resend(owner), 200);
    expect(sent.sent).toBe(true);
    const mails = await verificationMailsTo(owner.email);
    expect(mails).toHaveLength(2);
    const refused = await resend(owner);
    await expectError(refused, 429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await verificationMailsTo(owner.email)).toHaveLength(2);

    const [first, second] = mails.map(tokenOf);
    await expectStatus(await verify(second ?? ""), 200);
    await expectError(await verify(first ?? ""), 400);
    const done = await expectStatus<ResendVerificationResponse>(await resend(owner), 200);
    expect(done.sent).toBe(false);
    expect(await verificationMailsTo(owner.email)).toHaveLength(2);
  });

  it("sends at most five links a day", async () => {
    const owner = await registerOwner("Flood Solar", undefined, { verified: false });
    for (let sent = 1; sent < 5; sent++) {
      await backdateLinks(owner.id, 61_000);
      await expectStatus(await resend(owner), 200);
    }
    await backdateLinks(owner.id, 61_000);
    const refused = await resend(owner);
    await expectError(refused, 429);
    // The oldest of the five leaves the day's count in a little under a day.
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(20 * 3600);
    expect(await verificationMailsTo(owner.email)).toHaveLength(5);
  });

  it("counts accounts and invited members as verified, and sends them no verification mail", async () => {
    const { owner, user } = await createOrg("Known Solar");
    expect(await profileOf(user.token)).toMatchObject({ emailVerified: true });
    expect(await profileOf(owner.token)).toMatchObject({ emailVerified: true });
    expect(await verificationMailsTo(user.email)).toEqual([]);
  });
});

describe("an account whose address was never verified", () => {
  it("answers 403 email_not_verified to creating an API key or an invite, and writes neither", async () => {
    const owner = await registerOwner("Unproven Solar", undefined, { verified: false });
    const keyRefused = await expectError(await createKey(owner), 403);
    expect(keyRefused).toEqual({
      error: "Confirm your e-mail address first: follow the link we sent to it",
      code: "email_not_verified",
    });
    const colleague = uniqueEmail("colleague");
    const inviteRefused = await expectError(await invite(owner, colleague), 403);
    expect(inviteRefused.code).toBe("email_not_verified");
    expect(await count("SELECT count(*) AS n FROM api_keys WHERE org_id = ?", owner.orgId)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM invites WHERE org_id = ?", owner.orgId)).toBe(0);
    expect(await accountMailTo(colleague)).toEqual([]);

    // Everything else works: the organisation's own data.
    await expectStatus(await call("/api/sites", { token: owner.token }), 200);
    await expectStatus(
      await call("/api/portfolios", { method: "POST", token: owner.token, body: { name: "Mine" } }),
      201,
    );

    await expectStatus(await verify(tokenOf((await verificationMailsTo(owner.email))[0])), 200);
    await expectStatus(await createKey(owner), 201);
    await expectStatus(await invite(owner, colleague), 201);
  });

  it("is verified by a password reset, which ends every session of the account", async () => {
    const owner = await registerOwner("Reset Proof Solar", undefined, { verified: false });
    const second = await expectStatus<AuthResponse>(await login(owner.email), 200);
    await expectStatus(
      await call("/api/auth/password-reset", { method: "POST", body: { email: owner.email } }),
      202,
    );
    // Reset mail goes out after the answer.
    const [resetMail] = await mailArriving(owner.email);
    const resetToken = linkIn(resetMail as CaughtMail, "/reset-password").searchParams.get("token") ?? "";
    await expectStatus(
      await call("/api/auth/password-reset/confirm", {
        method: "POST",
        body: { token: resetToken, password: NEW_PASSWORD },
      }),
      200,
    );
    await expectError(await call("/api/user/profile", { token: owner.token }), 401);
    await expectError(await call("/api/user/profile", { token: second.token }), 401);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", owner.id)).toBe(0);
    const again = await expectStatus<AuthResponse>(await login(owner.email, NEW_PASSWORD), 200);
    expect(await profileOf(again.token)).toMatchObject({ emailVerified: true });
    // The sign-up's link is done with.
    await expectError(await verify(tokenOf((await verificationMailsTo(owner.email))[0])), 400);
    await expectStatus(await createKey({ ...owner, token: again.token }), 201);
  });
});

describe("an invite to an address a never-verified account holds", () => {
  /** Someone signs up with the address first and builds an organisation around it. */
  async function squatter(email: string) {
    const account = await registerOwner("Squatted Corp", email, { verified: false });
    await expectStatus(
      await call("/api/portfolios", { method: "POST", token: account.token, body: { name: "Squat" } }),
      201,
    );
    return account;
  }

  it("is mailed, and registering through it takes the account into the inviting organisation", async () => {
    const email = uniqueEmail("victim");
    const held = await squatter(email);
    const { owner: employer } = await createOrg("Real Corp");
    const sent = await createInvite(employer, "orgEngineer", { email });
    const [inviteMail] = (await accountMailTo(email)).filter((m) => m.text.includes("/login?invite="));
    expect(inviteMail?.subject).toBe("You are invited to Real Corp on Sunfleet");
    expect(linkIn(inviteMail as CaughtMail, "/login").searchParams.get("invite")).toBe(sent.token);

    const joined = await expectStatus<AuthResponse>(
      await call("/api/auth/register", {
        method: "POST",
        body: { email, password: NEW_PASSWORD, fullName: "Real Person", inviteToken: sent.token },
      }),
      201,
    );
    // The same account, now the invitee's: in the inviting organisation with the invite's role.
    expect(joined.user).toMatchObject({ id: held.id, companyId: employer.orgId, role: "orgEngineer" });
    expect(await profileOf(joined.token)).toMatchObject({
      fullName: "Real Person",
      companyName: "Real Corp",
      emailVerified: true,
    });
    // Whoever signed up before holds nothing: no session, not the password, not their organisation.
    await expectError(await call("/api/user/profile", { token: held.token }), 401);
    await expectError(await login(email, PASSWORD), 401);
    await expectStatus(await login(email, NEW_PASSWORD), 200);
    expect(await count("SELECT count(*) AS n FROM organizations WHERE id = ?", held.orgId)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM portfolios WHERE org_id = ?", held.orgId)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM users WHERE email = ?", email)).toBe(1);
  });

  it("moves the signed-in account that accepts it, ending its earlier organisation", async () => {
    const email = uniqueEmail("mistaken");
    const held = await squatter(email);
    const { owner: employer } = await createOrg("Employer Corp");
    const sent = await createInvite(employer, "user", { email });
    const profile = await expectStatus<Profile>(
      await call("/api/auth/accept-invite", {
        method: "POST",
        token: held.token,
        body: { inviteToken: sent.token },
      }),
      200,
    );
    expect(profile).toMatchObject({
      id: held.id,
      companyId: employer.orgId,
      role: "user",
      emailVerified: true,
    });
    expect(await count("SELECT count(*) AS n FROM organizations WHERE id = ?", held.orgId)).toBe(0);
    await expectStatus(await call("/api/sites", { token: held.token }), 200);
  });

  it("never moves an account whose address was verified", async () => {
    const email = uniqueEmail("settled");
    const settled = await registerOwner("Settled Corp", email);
    const { owner: other } = await createOrg("Other Corp");
    const sent = await createInvite(other, "user", { email });
    await expectError(
      await call("/api/auth/register", {
        method: "POST",
        body: { email, password: NEW_PASSWORD, fullName: "Someone", inviteToken: sent.token },
      }),
      409,
    );
    const refused = await expectError(
      await call("/api/auth/accept-invite", {
        method: "POST",
        token: settled.token,
        body: { inviteToken: sent.token },
      }),
      409,
    );
    expect(refused.details).toEqual({ reason: "already_in_organisation" });
    expect(await profileOf(settled.token)).toMatchObject({ companyId: settled.orgId });
    await expectStatus(await login(email, PASSWORD), 200);
  });
});
