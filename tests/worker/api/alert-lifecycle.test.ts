import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AlertRules } from "../../../schema/api/alert-rules";
import type { Alert } from "../../../schema/api/alerts";
import { pageMetadataStatements } from "../../../worker/data/monitoring";
import { createDb, runBatch } from "../../../worker/lib/db";
import type { NormalisedAlarm } from "../../../worker/providers/types";
import { plantOne, plantOneAlarm } from "../alerts/vendor-alarm-fixtures";
import {
  addMember,
  call,
  expectError,
  expectRejectsBadTokens,
  expectStatus,
  registerOwner,
  type TestUser,
} from "../helpers";

async function insertAlert(orgId: string, values: { lostEnergyWh?: number | null; createdAt?: number } = {}) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `INSERT INTO alerts (id, org_id, title, message, severity, created_at, resolved, rule, lost_energy_wh)
     VALUES (?, ?, 'No production', 'Plant at 0 W', 'critical', ?, 0, 'no_production', ?)`,
  )
    .bind(id, orgId, values.createdAt ?? Date.now(), values.lostEnergyWh ?? null)
    .run();
  return id;
}

const post = (user: TestUser, path: string, body: unknown = {}) =>
  call(path, { method: "POST", token: user.token, body });

describe("alert rules", () => {
  it("answers the defaults of every rule to any member", async () => {
    const owner = await registerOwner();
    const user = await addMember(owner, "user");
    const { rules } = await expectStatus<AlertRules>(
      await call("/api/alert-rules", { token: user.token }),
      200,
    );
    expect(rules.map((r) => r.rule)).toEqual([
      "communication_lost",
      "no_production",
      "underperformance",
      "inverter_down",
      "vendor_alarm",
    ]);
    expect(rules.find((r) => r.rule === "underperformance")).toMatchObject({
      enabled: true,
      clearMinutes: 15,
      windowMinutes: 120,
      thresholdPct: 80,
    });
    expect(rules.find((r) => r.rule === "no_production")).toMatchObject({ delayMinutes: 30 });
    await expectRejectsBadTokens({ method: "GET", path: "/api/alert-rules" }, owner);
  });

  it("lets owners and engineers change rules for their organisation only, never users", async () => {
    const owner = await registerOwner();
    const engineer = await addMember(owner, "orgEngineer");
    const user = await addMember(owner, "user");
    const other = await registerOwner("Other Solar");
    const patch = {
      rules: [
        { rule: "underperformance", windowMinutes: 180, thresholdPct: 70 },
        { rule: "inverter_down", enabled: false },
      ],
    };
    await expectError(
      await call("/api/alert-rules", { method: "PATCH", token: user.token, body: patch }),
      403,
    );
    const { rules } = await expectStatus<AlertRules>(
      await call("/api/alert-rules", { method: "PATCH", token: engineer.token, body: patch }),
      200,
    );
    expect(rules.find((r) => r.rule === "underperformance")).toMatchObject({
      windowMinutes: 180,
      thresholdPct: 70,
      clearMinutes: 15,
    });
    expect(rules.find((r) => r.rule === "inverter_down")?.enabled).toBe(false);
    const again = await expectStatus<AlertRules>(await call("/api/alert-rules", { token: owner.token }), 200);
    expect(again.rules).toEqual(rules);
    const theirs = await expectStatus<AlertRules>(
      await call("/api/alert-rules", { token: other.token }),
      200,
    );
    expect(theirs.rules.find((r) => r.rule === "inverter_down")?.enabled).toBe(true);
  });

  it("refuses out-of-range or misplaced settings with 400 and changes nothing", async () => {
    const owner = await registerOwner();
    const before = await expectStatus<AlertRules>(
      await call("/api/alert-rules", { token: owner.token }),
      200,
    );
    const bad = [
      { rules: [{ rule: "no_production", delayMinutes: 1441 }] },
      { rules: [{ rule: "no_production", clearMinutes: -1 }] },
      { rules: [{ rule: "underperformance", windowMinutes: 10 }] },
      { rules: [{ rule: "communication_lost", windowMinutes: 60 }] },
      { rules: [{ rule: "made_up" }] },
      { rules: [] },
      { rules: [{ rule: "no_production" }, { rule: "no_production", enabled: false }] },
      { rules: [{ rule: "no_production", delayMinutes: 10, extra: true }] },
    ];
    for (const body of bad) {
      await expectError(await call("/api/alert-rules", { method: "PATCH", token: owner.token, body }), 400);
    }
    expect(
      await expectStatus<AlertRules>(await call("/api/alert-rules", { token: owner.token }), 200),
    ).toEqual(before);
  });
});

describe("alert lifecycle by hand", () => {
  it("acknowledges with a note, assigns, resolves and reopens, keeping who did what", async () => {
    const owner = await registerOwner();
    const engineer = await addMember(owner, "orgEngineer");
    const id = await insertAlert(owner.orgId, { lostEnergyWh: 12_345 });
    const acked = await expectStatus<Alert>(
      await post(engineer, `/api/alerts/${id}/acknowledge`, { note: "Crew on the way" }),
      200,
    );
    expect(acked.acknowledgedAt).not.toBeNull();
    expect(acked.acknowledgedBy).toBe(engineer.id);
    expect(acked.lostEnergyKwh).toBeCloseTo(12.345, 3);
    expect(acked.rule).toBe("no_production");
    const assigned = await expectStatus<Alert>(
      await post(owner, `/api/alerts/${id}/assign`, { userId: engineer.id }),
      200,
    );
    expect(assigned.assignedTo).toBe(engineer.id);
    await expectStatus(await post(owner, `/api/alerts/${id}/resolve`, { note: "Breaker reset" }), 200);
    const reopened = await expectStatus<Alert>(await post(owner, `/api/alerts/${id}/reopen`), 200);
    expect(reopened.resolved).toBe(false);
    expect(reopened.history.map((h) => [h.kind, h.actorId, h.note])).toEqual([
      ["acknowledged", engineer.id, "Crew on the way"],
      ["assigned", owner.id, null],
      ["resolved", owner.id, "Breaker reset"],
      ["reopened", owner.id, null],
    ]);
    expect(reopened.history[0]?.actorName).toBe("orgEngineer person");
  });

  it("refuses assigning to someone outside the organisation, users acting, and other organisations' alerts", async () => {
    const owner = await registerOwner();
    const user = await addMember(owner, "user");
    const other = await registerOwner("Elsewhere");
    const id = await insertAlert(owner.orgId);
    const theirs = await insertAlert(other.orgId);
    await expectError(await post(owner, `/api/alerts/${id}/assign`, { userId: other.id }), 400);
    await expectError(await post(owner, `/api/alerts/${id}/assign`, { userId: 5 }), 400);
    await expectError(await post(user, `/api/alerts/${id}/acknowledge`), 403);
    await expectError(await post(owner, `/api/alerts/${theirs}/acknowledge`), 404);
    await expectError(await post(owner, `/api/alerts/${id}/acknowledge`, { note: "x".repeat(501) }), 400);
    const [alert] = await expectStatus<Alert[]>(await call("/api/alerts", { token: owner.token }), 200);
    expect(alert).toMatchObject({ assignedTo: null, acknowledgedAt: null, history: [] });
  });

  it("names the vendor of the system a Sunfleet alert concerns (two plants may share a name)", async () => {
    const owner = await registerOwner();
    const systemId = crypto.randomUUID();
    await env.DB.prepare(
      `INSERT INTO monitoring_systems (id, org_id, provider, provider_system_id, name, capacity_w, state, timezone,
         created_at, updated_at) VALUES (?, ?, 'fronius', 'P-1', 'Phoenix Array 1', 5000, 'online', 'UTC', ?, ?)`,
    )
      .bind(systemId, owner.orgId, Date.now(), Date.now())
      .run();
    const id = await insertAlert(owner.orgId);
    await env.DB.prepare("UPDATE alerts SET system_id = ? WHERE id = ?").bind(systemId, id).run();
    const [alert] = await expectStatus<Alert[]>(await call("/api/alerts", { token: owner.token }), 200);
    expect(alert).toMatchObject({
      rule: "no_production",
      provider: "fronius",
      systemName: "Phoenix Array 1",
    });
  });

  it("sorts by lost energy on request", async () => {
    const owner = await registerOwner();
    const small = await insertAlert(owner.orgId, { lostEnergyWh: 1000, createdAt: Date.now() - 1000 });
    const none = await insertAlert(owner.orgId, { lostEnergyWh: null, createdAt: Date.now() });
    const large = await insertAlert(owner.orgId, { lostEnergyWh: 9000, createdAt: Date.now() - 2000 });
    const sorted = await expectStatus<Alert[]>(
      await call("/api/alerts?sort=lostEnergy", { token: owner.token }),
      200,
    );
    expect(sorted.map((a) => a.id)).toEqual([large, small, none]);
  });
});

describe("vendor alarms", () => {
  it("stay open while missing from a page (a fault longer than the vendor's window) until the vendor ends them", async () => {
    const owner = await registerOwner();
    const db = createDb(env.DB);
    const started = Date.UTC(2026, 4, 1, 9);
    const scope = { orgId: owner.orgId, provider: "solis" as const, connectionId: null, now: started };
    const alarm = plantOneAlarm({
      providerAlarmId: "alarm-77",
      code: "1010",
      title: "Grid overvoltage",
      severity: "critical",
      startedAt: started,
    });
    const page = (alarms: NormalisedAlarm[], now: number) =>
      pageMetadataStatements(db, { ...scope, now }, [plantOne], alarms);
    await runBatch(db, page([alarm], started));
    // Three days on, the vendor's 2-day window no longer holds the alarm's start.
    await runBatch(db, page([], started + 3 * 86_400_000));
    const open = await expectStatus<Alert[]>(
      await call("/api/alerts?state=open", { token: owner.token }),
      200,
    );
    expect(open.map((a) => a.title)).toEqual(["Grid overvoltage"]);
    const ended = started + 4 * 86_400_000;
    await runBatch(db, page([{ ...alarm, endedAt: ended }], ended + 60_000));
    const [closed] = await expectStatus<Alert[]>(
      await call("/api/alerts?state=resolved", { token: owner.token }),
      200,
    );
    expect(closed?.resolvedAt).toBe(new Date(ended).toISOString());
    expect(closed?.rule).toBe("vendor_alarm");
    expect(closed?.history.map((h) => [h.kind, h.rule, h.at])).toEqual([
      ["opened", "vendor_alarm", new Date(started).toISOString()],
      ["resolved", "vendor_alarm", new Date(ended).toISOString()],
    ]);
  });
});
