import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../../worker/index";
import {
  call,
  createInvite,
  createOrg,
  DAY_MS,
  expectStatus,
  login,
  registerWithInvite,
  sessionIdOf,
} from "../helpers";

const MINUTE_MS = 60 * 1000;

async function runCron(scheduledTime: number, cron = "*/5 * * * *") {
  const controller = createScheduledController({ scheduledTime, cron });
  const ctx = createExecutionContext();
  await worker.scheduled(controller, env, ctx);
  await waitOnExecutionContext(ctx);
}

const sessionIds = async (userId: string) => {
  const { results } = await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ? ORDER BY id")
    .bind(userId)
    .all<{ id: string }>();
  return results.map((row) => row.id);
};

const setSessionExpiry = (sessionId: string, expiresAt: number) =>
  env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?").bind(expiresAt, sessionId).run();

const inviteIds = async () => {
  const { results } = await env.DB.prepare("SELECT id FROM invites").all<{ id: string }>();
  return results.map((row) => row.id).sort();
};

const setExpiry = (inviteId: string, expiresAt: number) =>
  env.DB.prepare("UPDATE invites SET expires_at = ? WHERE id = ?").bind(expiresAt, inviteId).run();

describe("the five-minute maintenance cron", () => {
  it("removes sessions whose token has expired and keeps the live ones", async () => {
    const { owner } = await createOrg();
    const now = Date.now();
    const second = await expectStatus<{ token: string }>(await login(owner.email), 200);
    await setSessionExpiry(sessionIdOf(second.token), now - MINUTE_MS);
    await runCron(now);
    expect(await sessionIds(owner.id)).toEqual([sessionIdOf(owner.token)]);
    await expectStatus(await call("/api/user/profile", { token: owner.token }), 200);
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
    const { owner } = await createOrg();
    const now = Date.now();
    await setSessionExpiry(sessionIdOf(owner.token), now - MINUTE_MS);
    await runCron(now, "0 0 * * *");
    expect(await sessionIds(owner.id)).toEqual([sessionIdOf(owner.token)]);
  });
});
