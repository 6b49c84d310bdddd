import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../../worker/index";
import { createInvite, createOrg, DAY_MS, expectStatus, login, registerWithInvite } from "../helpers";

const MINUTE_MS = 60 * 1000;

async function runCron(scheduledTime: number, cron = "*/5 * * * *") {
  const controller = createScheduledController({ scheduledTime, cron });
  const ctx = createExecutionContext();
  await worker.scheduled(controller, env, ctx);
  await waitOnExecutionContext(ctx);
}

const failureTimes = async (email: string) => {
  const { results } = await env.DB.prepare(
    "SELECT failed_at FROM login_failures WHERE email = ? ORDER BY failed_at",
  )
    .bind(email)
    .all<{ failed_at: number }>();
  return results.map((row) => row.failed_at);
};

const inviteIds = async () => {
  const { results } = await env.DB.prepare("SELECT id FROM invites").all<{ id: string }>();
  return results.map((row) => row.id).sort();
};

const setExpiry = (inviteId: string, expiresAt: number) =>
  env.DB.prepare("UPDATE invites SET expires_at = ? WHERE id = ?").bind(expiresAt, inviteId).run();

describe("the five-minute maintenance cron", () => {
  it("removes login failures older than 15 minutes and keeps the recent ones", async () => {
    const now = Date.now();
    const email = "throttled@example.com";
    const times = [now - 60 * MINUTE_MS, now - 16 * MINUTE_MS, now - 14 * MINUTE_MS, now - MINUTE_MS];
    for (const at of times) {
      await env.DB.prepare("INSERT INTO login_failures (email, failed_at) VALUES (?, ?)")
        .bind(email, at)
        .run();
    }
    await runCron(now);
    expect(await failureTimes(email)).toEqual([now - 14 * MINUTE_MS, now - MINUTE_MS]);
  });

  it("removes expired unaccepted invites and keeps pending and accepted ones", async () => {
    const { owner } = await createOrg();
    const now = Date.now();
    const expired = await createInvite(owner, "user");
    const pending = await createInvite(owner, "user");
    const acceptedThenLapsed = await createInvite(owner, "orgEngineer");
    await registerWithInvite(acceptedThenLapsed);
    await setExpiry(expired.id, now - DAY_MS);
    await setExpiry(acceptedThenLapsed.id, now - DAY_MS);
    const before = await inviteIds();
    expect(before).toContain(expired.id);

    await runCron(now);

    const after = await inviteIds();
    expect(after).not.toContain(expired.id);
    expect(after).toContain(pending.id);
    expect(after).toContain(acceptedThenLapsed.id);
    expect(after).toEqual(before.filter((id) => id !== expired.id));
  });

  it("judges expiry by the scheduled time", async () => {
    const { owner } = await createOrg();
    const invite = await createInvite(owner, "user");
    const expiresAt = Date.now() + DAY_MS;
    await setExpiry(invite.id, expiresAt);
    await runCron(expiresAt - MINUTE_MS);
    expect(await inviteIds()).toContain(invite.id);
    await runCron(expiresAt + MINUTE_MS);
    expect(await inviteIds()).not.toContain(invite.id);
  });

  it("does nothing for a cron string it does not know", async () => {
    const now = Date.now();
    await env.DB.prepare("INSERT INTO login_failures (email, failed_at) VALUES (?, ?)")
      .bind("stale@example.com", now - 60 * MINUTE_MS)
      .run();
    await runCron(now, "0 0 * * *");
    expect(await failureTimes("stale@example.com")).toEqual([now - 60 * MINUTE_MS]);
  });

  it("leaves an account that failed long ago free to sign in", async () => {
    const { owner } = await createOrg();
    const long = Date.now() - 30 * MINUTE_MS;
    for (let i = 0; i < 5; i++) {
      await env.DB.prepare("INSERT INTO login_failures (email, failed_at) VALUES (?, ?)")
        .bind(owner.email, long + i)
        .run();
    }
    await runCron(Date.now());
    expect(await failureTimes(owner.email)).toEqual([]);
    await expectStatus(await login(owner.email), 200);
  });
});
