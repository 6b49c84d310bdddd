import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectError, expectStatus, login, PASSWORD, registerOwner, uniqueEmail } from "../helpers";
import { caughtMailTo, linkIn, MAIL_CATCHER, mailArriving } from "../mail-helpers";

const NEW_PASSWORD = "a brand new passphrase";

const requestReset = (email: string, ip = "203.0.113.7") =>
  call("/api/auth/password-reset", {
    method: "POST",
    body: { email },
    headers: { "CF-Connecting-IP": ip },
  });

const confirm = (token: string, password = NEW_PASSWORD) =>
  call("/api/auth/password-reset/confirm", { method: "POST", body: { token, password } });

/** When the outbox marked the user's reset mail sent: the mark follows the mail service's answer. */
async function resetMailSentAt(userId: string): Promise<number | null> {
  const deadline = Date.now() + 2000;
  for (;;) {
    const row = await env.DB.prepare(
      "SELECT sent_at FROM email_outbox WHERE user_id = ? AND kind = 'password_reset'",
    )
      .bind(userId)
      .first<{ sent_at: number | null }>();
    if (row?.sent_at || Date.now() > deadline) return row?.sent_at ?? null;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The link of the `nth` reset mail to the address, once it has arrived (mail goes out after the answer). */
async function resetTokenFor(email: string, nth = 1): Promise<string> {
  const mails = await mailArriving(email, nth);
  const mail = mails[nth - 1];
  if (!mail) throw new Error("no mail");
  return linkIn(mail, "/reset-password").searchParams.get("token") ?? "";
}

describe("POST /api/auth/password-reset", () => {
  it("answers 202 and mails a single-use link to an account's address", async () => {
    const owner = await registerOwner("Reset Solar");
    await expectStatus(await requestReset(owner.email), 202);
    const [mail] = await mailArriving(owner.email);
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
    expect(await resetMailSentAt(owner.id)).toBeGreaterThan(0);
  });

  it("answers the same 202 for an address without an account and sends nothing", async () => {
    const email = uniqueEmail("nobody");
    const body = await expectStatus<{ message: string }>(await requestReset(email), 202);
    expect(body.message).toMatch(/If an account exists/);
    // A known address asked after it has its mail by now, so the unknown one's work is done too.
    const owner = await registerOwner("Known Solar");
    await expectStatus(await requestReset(owner.email), 202);
    await mailArriving(owner.email);
    expect(await caughtMailTo(email)).toEqual([]);
  });

  it("answers as quickly for an account's address as for an unknown one, the mail following through the outbox", async () => {
    const owner = await registerOwner("Slow Mail Solar");
    const MAIL_DELAY_MS = 3000;
    // The mail service takes 3 s to answer the next mail to this address.
    const slow = await fetch(
      `${MAIL_CATCHER}/delay-next?to=${encodeURIComponent(owner.email)}&ms=${MAIL_DELAY_MS}`,
      { method: "POST" },
    );
    expect(slow.status).toBe(200);

    const timed = async (email: string) => {
      const startedAt = Date.now();
      const res = await requestReset(email);
      const text = await res.text();
      return { status: res.status, text, type: res.headers.get("Content-Type"), ms: Date.now() - startedAt };
    };
    const known = await timed(owner.email);
    const unknown = await timed(uniqueEmail("nobody"));
    expect({ ...known, ms: 0 }).toEqual({ ...unknown, ms: 0 });
    expect(known.status).toBe(202);
    // Sent inline, the known address's answer would wait the mail service's 3 s.
    expect(known.ms, `known ${known.ms} ms, unknown ${unknown.ms} ms`).toBeLessThan(MAIL_DELAY_MS / 2);

    const [mail] = await mailArriving(owner.email, 1, MAIL_DELAY_MS + 5000);
    expect(mail?.subject).toBe("Reset your Sunfleet password");
    expect(await resetMailSentAt(owner.id)).toBeGreaterThan(0);
  });

  it("writes the mail in the member's language", async () => {
    const owner = await registerOwner("Idioma Solar");
    await expectStatus(
      await call("/api/user/preferences", { method: "PATCH", token: owner.token, body: { language: "es" } }),
      200,
    );
    await expectStatus(await requestReset(owner.email), 202);
    const [mail] = await mailArriving(owner.email);
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
    expect(await mailArriving(owner.email, 3)).toHaveLength(3);
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
    const second = await resetTokenFor(owner.email, 2);
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
