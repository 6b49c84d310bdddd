import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runMaintenance, SYNC_RUN_RETENTION_DAYS } from "../../../worker/cron/maintenance";
import worker from "../../../worker/index";
import { connectProvider } from "../fleet-helpers";
import {
  call,
  createInvite,
  createOrg,
  DAY_MS,
  expectStatus,
  login,
  registerOwner,
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

describe("sync run retention", () => {
  it("removes ended runs past the retention, oldest first and bounded, and keeps running and recent ones", async () => {
    const owner = await registerOwner();
    await connectProvider(owner, "solis");
    const connection = await env.DB.prepare("SELECT id FROM provider_connections WHERE org_id = ?")
      .bind(owner.orgId)
      .first<{ id: string }>();
    const now = Date.now();
    const old = now - (SYNC_RUN_RETENTION_DAYS + 1) * DAY_MS;
    const insertRun = (id: string, status: string, startedAt: number) =>
      env.DB.prepare(
        `INSERT INTO sync_runs (id, org_id, connection_id, provider, trigger, status, started_at)
         VALUES (?, ?, ?, 'solis', 'cron', ?, ?)`,
      )
        .bind(id, owner.orgId, connection?.id, status, startedAt)
        .run();
    await insertRun("old-success", "success", old);
    await insertRun("old-failed", "failed", old + 1);
    await insertRun("old-running", "running", old + 2);
    await insertRun("recent", "success", now - DAY_MS);
    const runIds = async () =>
      (
        await env.DB.prepare("SELECT id FROM sync_runs WHERE org_id = ? ORDER BY id").bind(owner.orgId).all<{
          id: string;
        }>()
      ).results.map((r) => r.id);
    const before = await runIds();
    expect(before).toEqual(expect.arrayContaining(["old-success", "old-failed", "old-running", "recent"]));

    const result = await runMaintenance({ env, now });
    expect(result.syncRunsRemoved).toBeGreaterThanOrEqual(2);
    const after = await runIds();
    expect(after).not.toContain("old-success");
    expect(after).not.toContain("old-failed");
    expect(after).toContain("old-running");
    expect(after).toContain("recent");
    // The connection's own runs from the sync above are recent and stay.
    expect(after).toEqual(before.filter((id) => id !== "old-success" && id !== "old-failed"));
  });
});
