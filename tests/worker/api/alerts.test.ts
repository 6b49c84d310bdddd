import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../../sandbox/app";
import { createDb } from "../../../worker/lib/db";
import { syncConnection } from "../../../worker/sync/sync-connection";
import { attach, connectProvider, createSite } from "../fleet-helpers";
import {
  addMember,
  call,
  expectRejectsBadTokens,
  expectStatus,
  registerOwner,
  type TestUser,
} from "../helpers";

interface AlertBody {
  id: string;
  title: string;
  severity: string;
  resolved: boolean;
  systemName: string | null;
  createdAt: string;
}

let counter = 0;
async function insertAlert(
  orgId: string,
  values: { severity?: string; resolved?: boolean; createdAt?: number } = {},
) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO alerts (id, org_id, title, message, severity, created_at, resolved) VALUES (?, ?, ?, ?, ?, ?, ?)",
  )
    .bind(
      id,
      orgId,
      `Alert ${++counter}`,
      "Inverter disconnected",
      values.severity ?? "warning",
      values.createdAt ?? Date.now() - counter * 1000,
      values.resolved ? 1 : 0,
    )
    .run();
  return id;
}

const list = async (user: TestUser, query = "") =>
  expectStatus<AlertBody[]>(await call(`/api/alerts${query}`, { token: user.token }), 200);

describe("GET /api/alerts", () => {
  it("lists the organisation's alerts newest first, filtered by state and severity", async () => {
    const owner = await registerOwner();
    const old = await insertAlert(owner.orgId, { severity: "critical", createdAt: Date.now() - 86_400_000 });
    const recent = await insertAlert(owner.orgId, { severity: "info", createdAt: Date.now() - 1000 });
    const done = await insertAlert(owner.orgId, { severity: "critical", resolved: true });
    expect((await list(owner)).map((a) => a.id)).toEqual([recent, done, old]);
    expect((await list(owner, "?state=open")).map((a) => a.id)).toEqual([recent, old]);
    expect((await list(owner, "?state=resolved")).map((a) => a.id)).toEqual([done]);
    expect((await list(owner, "?state=open&severity=critical")).map((a) => a.id)).toEqual([old]);
    const summary = await expectStatus<{ open: number; critical: number; info: number }>(
      await call("/api/alerts/summary", { token: owner.token }),
      200,
    );
    expect(summary).toMatchObject({ open: 2, critical: 1, info: 1 });
  });

  it("never shows or changes another organisation's alerts", async () => {
    const owner = await registerOwner();
    const other = await registerOwner("Other");
    const theirs = await insertAlert(other.orgId);
    expect(await list(owner)).toEqual([]);
    await expectStatus(
      await call(`/api/alerts/${theirs}`, { method: "PATCH", token: owner.token, body: { resolved: true } }),
      404,
    );
  });

  it("refuses bad filters and needs a token", async () => {
    const owner = await registerOwner();
    await expectStatus(await call("/api/alerts?severity=bad", { token: owner.token }), 400);
    await expectStatus(await call("/api/alerts?extra=1", { token: owner.token }), 400);
    await expectRejectsBadTokens({ method: "GET", path: "/api/alerts" }, owner);
  });
});

describe("GET /api/alerts?q=", () => {
  const titles = async (user: TestUser, q: string) =>
    (await list(user, `?q=${encodeURIComponent(q)}`)).map((alert) => alert.title).sort();

  it("finds alerts by title, system, site, vendor id and device, and follows renames and removals", async () => {
    const owner = await registerOwner();
    const [system, other] = await connectProvider(owner, "solis");
    if (!system || !other) throw new Error("the sandbox account lists three plants");
    const site = await createSite(owner, { name: "Keizersgracht Rooftop" });
    await attach(owner, site.id, system.id);
    // Only this test's alerts (connecting brought the vendor's alarms).
    await env.DB.prepare("DELETE FROM alerts WHERE org_id = ?").bind(owner.orgId).run();
    const insert = (title: string, systemId: string | null, deviceSerial: string | null) =>
      env.DB.prepare(
        "INSERT INTO alerts (id, org_id, system_id, device_serial, title, message, severity, created_at) VALUES (?, ?, ?, ?, ?, ?, 'warning', ?)",
      )
        .bind(crypto.randomUUID(), owner.orgId, systemId, deviceSerial, title, "-", Date.now())
        .run();
    await insert("Inverter offline", system.id, "SN-7731-A");
    await insert("Grid overvoltage", other.id, null);
    await insert('Fan "B" stopped', null, null);
    // Another organisation's alert with the same words never matches.
    const stranger = await registerOwner("Stranger");
    await env.DB.prepare(
      "INSERT INTO alerts (id, org_id, title, message, severity, created_at) VALUES (?, ?, 'Inverter offline', '-', 'info', ?)",
    )
      .bind(crypto.randomUUID(), stranger.orgId, Date.now())
      .run();

    expect(await titles(owner, "INVERTER off")).toEqual(["Inverter offline"]);
    expect(await titles(owner, system.name)).toEqual(["Inverter offline"]);
    expect(await titles(owner, "keizersgracht")).toEqual(["Inverter offline"]);
    expect(await titles(owner, system.providerId)).toEqual(["Inverter offline"]);
    expect(await titles(owner, "7731")).toEqual(["Inverter offline"]);
    expect(await titles(owner, '"B"')).toEqual(['Fan "B" stopped']);
    // Shorter than the index's trigrams: still found, by reading every alert.
    expect(await titles(owner, "ov")).toEqual(["Grid overvoltage"]);
    // A match never spans two fields (the title's end and the site's start).
    expect(await titles(owner, "offlinekeizers")).toEqual([]);
    // The total counts what the filters match, those on the alert's system and site among them.
    const totalOf = async (query: string) =>
      (await call(`/api/alerts?${query}&pageSize=1`, { token: owner.token })).headers.get("X-Total-Count");
    expect(await totalOf("q=offline")).toBe("1");
    expect(await totalOf("provider=solis")).toBe("2");
    expect(await totalOf(`siteId=${site.id}`)).toBe("1");
    expect(await totalOf("provider=solis&q=ov")).toBe("1");
    expect(await totalOf("state=open")).toBe("3");

    // The vendor renames the plant (as a sync stores it) and a member renames the site.
    await env.DB.prepare("UPDATE monitoring_systems SET name = ? WHERE id = ?")
      .bind("Haven Roof Nine", system.id)
      .run();
    await expectStatus(
      await call(`/api/sites/${site.id}`, {
        method: "PATCH",
        token: owner.token,
        body: { name: "Prinsengracht Depot" },
      }),
      200,
    );
    expect(await titles(owner, "haven roof")).toEqual(["Inverter offline"]);
    expect(await titles(owner, "prinsengracht")).toEqual(["Inverter offline"]);
    expect(await titles(owner, "keizersgracht")).toEqual([]);
    expect(await titles(owner, system.name)).toEqual([]);

    await env.DB.prepare("DELETE FROM alerts WHERE org_id = ? AND title = ?")
      .bind(owner.orgId, "Grid overvoltage")
      .run();
    expect(await titles(owner, "overvoltage")).toEqual([]);
    expect(await titles(stranger, "inverter off")).toEqual(["Inverter offline"]);
  });
});

describe("PATCH /api/alerts/{id}", () => {
  it("resolves and reopens for owners and engineers, not for users", async () => {
    const owner = await registerOwner();
    const engineer = await addMember(owner, "orgEngineer");
    const user = await addMember(owner, "user");
    const id = await insertAlert(owner.orgId);
    await expectStatus(
      await call(`/api/alerts/${id}`, { method: "PATCH", token: user.token, body: { resolved: true } }),
      403,
    );
    const resolved = await expectStatus<AlertBody>(
      await call(`/api/alerts/${id}`, { method: "PATCH", token: engineer.token, body: { resolved: true } }),
      200,
    );
    expect(resolved.resolved).toBe(true);
    const reopened = await expectStatus<AlertBody>(
      await call(`/api/alerts/${id}`, { method: "PATCH", token: owner.token, body: { resolved: false } }),
      200,
    );
    expect(reopened.resolved).toBe(false);
    await expectStatus(
      await call(`/api/alerts/${id}`, { method: "PATCH", token: owner.token, body: { resolved: "yes" } }),
      400,
    );
    const logs = await env.DB.prepare(
      "SELECT action FROM audit_logs WHERE org_id = ? AND target_id = ? ORDER BY created_at",
    )
      .bind(owner.orgId, id)
      .all<{ action: string }>();
    expect(logs.results.map((l) => l.action)).toEqual(["alert.resolve", "alert.reopen"]);
  });
});

describe("provider alarms", () => {
  it("become alerts while active at the vendor and resolve themselves when the vendor clears them", async () => {
    const owner = await registerOwner();
    await connectProvider(owner, "solis", { autoSites: true });
    const connection = await env.DB.prepare("SELECT id FROM provider_connections WHERE org_id = ?")
      .bind(owner.orgId)
      .first<{ id: string }>();
    // 11:22 local in Amsterdam and Munich on a day the sandbox faults their first inverter 11:00-11:45.
    let at = Date.UTC(2024, 5, 20, 9, 22, 30);
    const sandbox = createSandbox({ now: () => at });
    const deps = { db: createDb(env.DB), env, now: () => at, fetch: async (r: Request) => sandbox.fetch(r) };
    expect((await syncConnection(deps, connection?.id ?? "", "manual")).status).toBe("success");
    // Only the alarms of the simulated day: saving the credentials synced at the real clock too,
    // and a fault the sandbox has right now stays open until the vendor ends it.
    const open = (await list(owner, "?state=open")).filter(
      (a) => Date.parse(a.createdAt) < Date.UTC(2025, 0, 1),
    );
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((a) => a.systemName !== null)).toBe(true);

    at += 2 * 3_600_000;
    expect((await syncConnection(deps, connection?.id ?? "", "cron")).status).toBe("success");
    const stillOpen = await list(owner, "?state=open");
    expect(stillOpen.filter((a) => open.some((o) => o.id === a.id))).toEqual([]);
    expect((await list(owner, "?state=resolved")).length).toBeGreaterThanOrEqual(open.length);
  });
});
