import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runNotifications } from "../../../worker/cron/notifications";
import { createDb } from "../../../worker/lib/db";
import { deliverMail, queueMail, retryDelayMs } from "../../../worker/mail/outbox";
import { uniqueEmail } from "../helpers";
import { caughtMailTo } from "../mail-helpers";

const db = createDb(env.DB);
const outboxRow = (id: string) =>
  env.DB.prepare("SELECT attempts, sent_at, next_attempt_at, last_error FROM email_outbox WHERE id = ?")
    .bind(id)
    .first<{
      attempts: number;
      sent_at: number | null;
      next_attempt_at: number | null;
      last_error: string | null;
    }>();

async function queue(to: string, now: number) {
  const mail = queueMail(
    db,
    {
      kind: "test",
      orgId: null,
      userId: null,
      to: [to],
      subject: "Outbox test",
      html: "<p>hello</p>",
      text: "hello",
      attachments: [{ filename: "report.csv", content: btoa("a,b\n1,2\n") }],
    },
    now,
  );
  await mail.insert;
  return mail.id;
}

describe("the e-mail outbox", () => {
  it("speaks Resend's API: from, to, subject, html, text and base64 attachments reach the catcher", async () => {
    const to = uniqueEmail("outbox");
    const now = Date.UTC(2026, 5, 1, 10);
    const id = await queue(to, now);
    await deliverMail(env, db, [id], now);
    const [mail] = await caughtMailTo(to);
    expect(mail).toMatchObject({
      from: "Sunfleet <alerts@sunfleet.test>",
      to: [to],
      subject: "Outbox test",
      html: "<p>hello</p>",
      text: "hello",
      idempotencyKey: id,
    });
    expect(atob(mail?.attachments[0]?.content ?? "")).toBe("a,b\n1,2\n");
    expect((await outboxRow(id))?.sent_at).toBe(now);
  });

  it("keeps a failed send and the cron delivers it once its retry is due, exactly once", async () => {
    const to = uniqueEmail("retry");
    const now = Date.UTC(2026, 5, 1, 11);
    const id = await queue(to, now);
    // The API answers 404 here: the send fails and the mail stays.
    await deliverMail({ ...env, EMAIL_API_URL: "http://sandbox.test/mail-down" }, db, [id], now);
    const failed = await outboxRow(id);
    expect(failed).toMatchObject({ attempts: 1, sent_at: null, next_attempt_at: now + retryDelayMs(0) });
    expect(failed?.last_error).toMatch(/HTTP 404/);
    expect(await caughtMailTo(to)).toEqual([]);

    // Not yet due: the cron leaves it.
    await runNotifications({ env, now: now + retryDelayMs(0) - 1 });
    expect(await caughtMailTo(to)).toEqual([]);
    await runNotifications({ env, now: now + retryDelayMs(0) });
    expect(await caughtMailTo(to)).toHaveLength(1);
    expect((await outboxRow(id))?.sent_at).toBe(now + retryDelayMs(0));
    await runNotifications({ env, now: now + 60 * 60_000 });
    expect(await caughtMailTo(to)).toHaveLength(1);
  });

  it("keeps mail while no API key is configured", async () => {
    const to = uniqueEmail("nokey");
    const now = Date.UTC(2026, 5, 1, 12);
    const id = await queue(to, now);
    await deliverMail({ ...env, EMAIL_API_KEY: undefined }, db, [id], now);
    expect((await outboxRow(id))?.last_error).toBe("EMAIL_API_KEY is not set");
    expect(await caughtMailTo(to)).toEqual([]);
  });

  it("backs off 1, 5, 15, 60 minutes, then every 6 hours", () => {
    expect([0, 1, 2, 3, 4, 9].map(retryDelayMs)).toEqual([
      60_000, 300_000, 900_000, 3_600_000, 21_600_000, 21_600_000,
    ]);
  });
});
