import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectError, expectStatus, login, PASSWORD, registerOwner, uniqueEmail } from "../helpers";
import { caughtMailTo, linkIn } from "../mail-helpers";

const NEW_PASSWORD = "a brand new passphrase";

const requestReset = (email: string, ip = "203.0.113.7") =>
  call("/api/auth/password-reset", {
    method: "POST",
    body: { email },
    headers: { "CF-Connecting-IP": ip },
  });

const confirm = (token: string, password = NEW_PASSWORD) =>
  call("/api/auth/password-reset/confirm", { method: "POST", body: { token, password } });

async function resetTokenFor(email: string): Promise<string> {
  const mails = await caughtMailTo(email);
  expect(mails.length, JSON.stringify(mails)).toBeGreaterThan(0);
  const mail = mails[mails.length - 1];
  if (!mail) throw new Error("no mail");
  return linkIn(mail, "/reset-password").searchParams.get("token") ?? "";
}

describe("POST /api/auth/password-reset", () => {
  it("answers 202 and mails a single-use link to an account's address", async () => {
    const owner = await registerOwner("Reset Solar");
    await expectStatus(await requestReset(owner.email), 202);
    const [mail] = await caughtMailTo(owner.email);
    expect(mail?.from).toBe("Sunfleet <alerts@sunfleet.test>");
    expect(mail?.to).toEqual([owner.email]);
    expect(mail?.subject).toBe("Reset your Sunfleet password");
    const token = await resetTokenFor(owner.email);
    expect(token.length).toBeGreaterThan(30);
    // Only the token's hash is stored.
    const stored = await env.DB.prepare("SELECT token_hash FROM password_resets WHERE user_id = ?")
      .bind(owner.id)
      .all<{ token_hash: string }>();
    expect(stored.results).toHaveLength(1);
    expect(stored.results[0]?.token_hash).not.toContain(token);
    const sent = await env.DB.prepare(
      "SELECT sent_at FROM email_outbox WHERE user_id = ? AND kind = 'password_reset'",
    )
      .bind(owner.id)
      .first<{ sent_at: number | null }>();
    expect(sent?.sent_at).not.toBeNull();
  });

  it("answers the same 202 for an address without an account and sends nothing", async () => {
    const email = uniqueEmail("nobody");
    const body = await expectStatus<{ message: string }>(await requestReset(email), 202);
    expect(body.message).toMatch(/If an account exists/);
    expect(await caughtMailTo(email)).toEqual([]);
  });

  it("writes the mail in the member's language", async () => {
    const owner = await registerOwner("Idioma Solar");
    await expectStatus(
      await call("/api/user/preferences", { method: "PATCH", token: owner.token, body: { language: "es" } }),
      200,
    );
    await expectStatus(await requestReset(owner.email), 202);
    const [mail] = await caughtMailTo(owner.email);
    expect(mail?.subject).toBe("Restablece tu contraseña de Sunfleet");
    expect(mail?.html).toContain('lang="es"');
  });

  it("refuses a malformed address with 400", async () => {
    await expectError(await requestReset("not-an-email"), 400);
  });

  it("throttles repeated requests for one address with 429", async () => {
    const owner = await registerOwner("Flood Solar");
    for (let i = 0; i < 3; i++) await expectStatus(await requestReset(owner.email, `198.51.100.${i}`), 202);
    const refused = await requestReset(owner.email, "198.51.100.50");
    await expectError(refused, 429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await caughtMailTo(owner.email)).toHaveLength(3);
  });
});

describe("POST /api/auth/password-reset/confirm", () => {
  it("sets the password, ends every session and refuses the link a second time", async () => {
    const owner = await registerOwner("Confirm Solar");
    await expectStatus(await requestReset(owner.email), 202);
    const token = await resetTokenFor(owner.email);
    await expectStatus(await confirm(token), 200);
    // The old session is over, the old password refused, the new one accepted.
    await expectError(await call("/api/user/profile", { token: owner.token }), 401);
    await expectError(await login(owner.email, PASSWORD), 401);
    await expectStatus(await login(owner.email, NEW_PASSWORD), 200);
    // Single use.
    const again = await expectError(await confirm(token, "yet another passphrase"), 400);
    expect(again.error).toMatch(/invalid, has expired or has already been used/);
    await expectStatus(await login(owner.email, NEW_PASSWORD), 200);
  });

  it("refuses a link older than one hour and changes nothing", async () => {
    const owner = await registerOwner("Late Solar");
    await expectStatus(await requestReset(owner.email), 202);
    const token = await resetTokenFor(owner.email);
    await env.DB.prepare("UPDATE password_resets SET expires_at = ? WHERE user_id = ?")
      .bind(Date.now() - 1, owner.id)
      .run();
    await expectError(await confirm(token), 400);
    await expectStatus(await login(owner.email, PASSWORD), 200);
    await expectStatus(await call("/api/user/profile", { token: owner.token }), 200);
  });

  it("makes an earlier link useless once a newer one is sent", async () => {
    const owner = await registerOwner("Twice Solar");
    await expectStatus(await requestReset(owner.email), 202);
    const first = await resetTokenFor(owner.email);
    await expectStatus(await requestReset(owner.email), 202);
    const second = await resetTokenFor(owner.email);
    expect(second).not.toBe(first);
    await expectError(await confirm(first), 400);
    await expectStatus(await confirm(second), 200);
  });

  it("refuses an unknown token and a short password with 400", async () => {
    await expectError(await confirm("made-up-token"), 400);
    const body = await expectError(await confirm("made-up-token", "short"), 400);
    expect(JSON.stringify(body.details)).toMatch(/password/);
  });
});
