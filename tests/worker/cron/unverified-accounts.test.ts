import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runMaintenance } from "../../../worker/cron/maintenance";
import {
  REMOVALS_PER_PASS,
  remindOrRemoveUnverifiedAccounts,
} from "../../../worker/services/email-verification";
import { call, DAY_MS, expectError, expectStatus, registerOwner, type TestUser } from "../helpers";
import { accountMailTo, linkIn } from "../mail-helpers";

const MINUTE_MS = 60_000;

const count = async (sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0;

const accountExists = async (user: TestUser) =>
  (await count("SELECT count(*) AS n FROM users WHERE id = ?", user.id)) === 1;
const orgExists = async (user: TestUser) =>
  (await count("SELECT count(*) AS n FROM organizations WHERE id = ?", user.orgId)) === 1;

/** Moves the account's sign-up back in time by `ms`. */
const signedUpEarlier = (user: TestUser, ms: number) =>
  env.DB.prepare("UPDATE users SET created_at = created_at - ? WHERE id = ?").bind(ms, user.id).run();

const verificationMailsTo = async (email: string) =>
  (await accountMailTo(email)).filter((mail) => mail.text.includes("/verify-email?token="));

const pass = (now: number) => remindOrRemoveUnverifiedAccounts({ env, now });

describe("accounts whose address was never verified", () => {
  it("are reminded 5 days after sign-up and removed with their organisation after 7, by maintenance", async () => {
    const forgotten = await registerOwner("Forgotten Solar", undefined, { verified: false });
    await expectStatus(
      await call("/api/portfolios", { method: "POST", token: forgotten.token, body: { name: "Left" } }),
      201,
    );
    const kept = await registerOwner("Kept Solar");
    await signedUpEarlier(forgotten, 5 * DAY_MS + MINUTE_MS);
    await signedUpEarlier(kept, 5 * DAY_MS + MINUTE_MS);
    const now = Date.now();

    const first = await runMaintenance({ env, now });
    expect(first.verificationRemindersSent).toBeGreaterThanOrEqual(1);
    const [, reminder] = await verificationMailsTo(forgotten.email);
    expect(reminder?.subject).toBe(
      "Confirm your Sunfleet e-mail address, or the account is removed in 2 days",
    );
    expect(reminder?.text).toMatch(/removed in 2 days/);
    // The verified account had only its sign-up's mail.
    expect(await verificationMailsTo(kept.email)).toHaveLength(1);
    expect(await accountExists(forgotten)).toBe(true);

    // A day later (6 days after sign-up) nothing more happens: no second reminder, no removal.
    const sixth = await runMaintenance({ env, now: now + DAY_MS });
    expect(sixth.unverifiedAccountsRemoved).toBe(0);
    expect(await verificationMailsTo(forgotten.email)).toHaveLength(2);
    expect(await accountExists(forgotten)).toBe(true);

    const seventh = await runMaintenance({ env, now: now + 2 * DAY_MS });
    expect(seventh.unverifiedAccountsRemoved).toBe(1);
    expect(seventh.unverifiedOrganizationsRemoved).toBe(1);
    expect(await accountExists(forgotten)).toBe(false);
    expect(await orgExists(forgotten)).toBe(false);
    expect(await count("SELECT count(*) AS n FROM portfolios WHERE org_id = ?", forgotten.orgId)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", forgotten.id)).toBe(0);
    await expectError(await call("/api/user/profile", { token: forgotten.token }), 401);
    expect(
      await count(
        "SELECT count(*) AS n FROM audit_logs WHERE action = 'auth.unverified_account_remove' AND target_id = ?",
        forgotten.id,
      ),
    ).toBe(1);
    // A verified account of the same age stays.
    expect(await accountExists(kept)).toBe(true);
    await expectStatus(await call("/api/user/profile", { token: kept.token }), 200);
  });

  it("are removed no sooner than 2 days after their reminder, however late it went out", async () => {
    const late = await registerOwner("Late Solar", undefined, { verified: false });
    await signedUpEarlier(late, 10 * DAY_MS);
    const now = Date.now();
    await pass(now);
    expect(await verificationMailsTo(late.email)).toHaveLength(2);
    expect(await accountExists(late)).toBe(true);
    await pass(now + DAY_MS);
    expect(await accountExists(late)).toBe(true);
    await pass(now + 2 * DAY_MS);
    expect(await accountExists(late)).toBe(false);
  });

  it("stay once the reminder's link is followed", async () => {
    const saved = await registerOwner("Saved Solar", undefined, { verified: false });
    await signedUpEarlier(saved, 5 * DAY_MS + MINUTE_MS);
    const now = Date.now();
    await pass(now);
    const [, reminder] = await verificationMailsTo(saved.email);
    if (!reminder) throw new Error("no reminder");
    const token = linkIn(reminder, "/verify-email").searchParams.get("token");
    await expectStatus(await call("/api/auth/verify-email", { method: "POST", body: { token } }), 200);
    await pass(now + 3 * DAY_MS);
    expect(await accountExists(saved)).toBe(true);
    expect(await orgExists(saved)).toBe(true);
  });

  it("leave accounts that existed before verification alone: they count as verified", async () => {
    const id = crypto.randomUUID();
    // Inserted as rows were before the column existed: without email_verified_at.
    await env.DB.prepare(
      `INSERT INTO users (id, email, full_name, password_hash, password_salt, password_iterations, org_id, role, created_at)
       VALUES (?, ?, 'Early Member', 'hash', 'salt', 1000, NULL, 'user', 0)`,
    )
      .bind(id, `${id}@early.test`)
      .run();
    await pass(Date.now() + 30 * DAY_MS);
    const row = await env.DB.prepare(
      "SELECT email_verified_at, verification_reminded_at FROM users WHERE id = ?",
    )
      .bind(id)
      .first<{ email_verified_at: number | null; verification_reminded_at: number | null }>();
    expect(row).toEqual({ email_verified_at: 0, verification_reminded_at: null });
  });

  it("are removed a bounded number per pass, oldest first", async () => {
    const now = Date.now();
    const ids = Array.from({ length: REMOVALS_PER_PASS + 3 }, () => crypto.randomUUID());
    await env.DB.batch(
      ids.map((id, i) =>
        env.DB.prepare(
          `INSERT INTO users (id, email, full_name, password_hash, password_salt, password_iterations, org_id, role,
             created_at, email_verified_at, verification_reminded_at)
           VALUES (?, ?, 'Never Verified', 'hash', 'salt', 1000, NULL, 'user', ?, NULL, ?)`,
        ).bind(id, `${id}@bounded.test`, now - 30 * DAY_MS + i, now - 3 * DAY_MS),
      ),
    );
    const left = () => count("SELECT count(*) AS n FROM users WHERE email LIKE '%@bounded.test'");
    const first = await pass(now);
    expect(first.unverifiedAccountsRemoved).toBe(REMOVALS_PER_PASS);
    expect(await left()).toBe(3);
    // Oldest first: the three left are the newest.
    const remaining = await env.DB.prepare("SELECT id FROM users WHERE email LIKE '%@bounded.test'").all<{
      id: string;
    }>();
    expect(remaining.results.map((r) => r.id).sort()).toEqual(ids.slice(-3).sort());
    await pass(now);
    expect(await left()).toBe(0);
  });
});
