import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { detachMember, memberHoldsRole, updateMemberRole, userOutsideOrg } from "../../../worker/data/users";
import { createDb } from "../../../worker/lib/db";
import { ApiError } from "../../../worker/lib/errors";
import { auditEntryIf } from "../../../worker/services/audit";
import type { UserContext } from "../../../worker/services/context";
import { changeMemberRole, removeMember } from "../../../worker/services/members";
import { addMember, registerOwner, tableCounts, userRow } from "../helpers";

/**
 * The caller as the auth middleware loaded them a moment ago: if their role changed in
 * between (a concurrent demotion), the service still sees the stale one.
 */
function staleOwnerContext(userId: string, email: string, orgId: string): UserContext {
  return {
    db: createDb(env.DB),
    env,
    now: Date.now(),
    ip: null,
    origin: "http://sunfleet.test",
    user: {
      id: userId,
      email,
      fullName: "Stale",
      role: "orgOwner",
      orgId,
      orgName: "Race Co",
      permissions: null,
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("the last orgOwner", () => {
  it("cannot be demoted or removed even by a caller whose owner role went stale", async () => {
    const a = await registerOwner("Race Co");
    const b = await addMember(a, "orgOwner");
    // b demoted a; a's request was authorised just before, as an owner.
    await env.DB.prepare("UPDATE users SET role = 'orgEngineer' WHERE id = ?").bind(a.id).run();
    const ctx = staleOwnerContext(a.id, a.email, a.orgId);
    const before = await tableCounts();

    expect((await rejection(changeMemberRole(ctx, b.id, "orgEngineer"))).status).toBe(409);
    expect((await rejection(removeMember(ctx, b.id))).status).toBe(409);

    expect(await tableCounts()).toEqual(before);
    expect(await userRow(b.id)).toMatchObject({ role: "orgOwner", org_id: a.orgId });
  });
});

describe("the guarded writes behind role changes and removals", () => {
  it("change no row when they would leave an organisation without an owner, and record nothing", async () => {
    const owner = await registerOwner("Guard Co");
    const db = createDb(env.DB);
    const ctx = staleOwnerContext(owner.id, owner.email, owner.orgId);
    const before = await tableCounts();
    const event = {
      orgId: owner.orgId,
      actorId: owner.id,
      actorEmail: owner.email,
      targetType: "user",
      targetId: owner.id,
    };
    const [demoted, demotionAudit] = await db.batch([
      updateMemberRole(db, owner.orgId, owner.id, "user"),
      auditEntryIf(
        ctx,
        { ...event, action: "member.role_change" },
        memberHoldsRole(owner.orgId, owner.id, "user"),
      ),
    ]);
    const [detached, removalAudit] = await db.batch([
      detachMember(db, owner.orgId, owner.id),
      auditEntryIf(ctx, { ...event, action: "member.remove" }, userOutsideOrg(owner.orgId, owner.id)),
    ]);
    expect([
      demoted.meta.changes,
      demotionAudit.meta.changes,
      detached.meta.changes,
      removalAudit.meta.changes,
    ]).toEqual([0, 0, 0, 0]);
    expect(await tableCounts()).toEqual(before);
    expect(await userRow(owner.id)).toMatchObject({ role: "orgOwner", org_id: owner.orgId });
  });

  it("change the row and record it when another owner remains", async () => {
    const a = await registerOwner("Guard Co");
    const b = await addMember(a, "orgOwner");
    const db = createDb(env.DB);
    const ctx = staleOwnerContext(a.id, a.email, a.orgId);
    const event = { orgId: a.orgId, actorId: a.id, actorEmail: a.email, targetType: "user", targetId: b.id };
    const [demoted, audit] = await db.batch([
      updateMemberRole(db, a.orgId, b.id, "orgEngineer"),
      auditEntryIf(
        ctx,
        { ...event, action: "member.role_change", details: { from: "orgOwner", to: "orgEngineer" } },
        memberHoldsRole(a.orgId, b.id, "orgEngineer"),
      ),
    ]);
    expect([demoted.meta.changes, audit.meta.changes]).toEqual([1, 1]);
    const row = await env.DB.prepare(
      "SELECT * FROM audit_logs WHERE target_id = ? AND action = 'member.role_change'",
    )
      .bind(b.id)
      .first<Record<string, unknown>>();
    expect(row).toMatchObject({ org_id: a.orgId, actor_id: a.id, actor_email: a.email, target_type: "user" });
    expect(JSON.parse(String(row?.details))).toEqual({ from: "orgOwner", to: "orgEngineer" });
  });
});
