import { env } from "cloudflare:workers";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import type { Alert } from "../../../schema/api/alerts";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import type { AuditPage } from "../../../schema/api/audit";
import type { MonthlyEnergy } from "../../../schema/api/exports";
import type { DashboardMetric } from "../../../schema/api/metrics";
import type { Portfolio } from "../../../schema/api/portfolios";
import { attach, connectProvider, createSite, seedDailyRollups } from "../fleet-helpers";
import {
  call,
  expectError,
  expectRejectsBadTokens,
  expectStatus,
  registerOwner,
  type TestUser,
} from "../helpers";

const OFFSET_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?[+-]\d{2}:\d{2}$/;

/** Fetches a CSV export, checks its envelope (BOM, type, filename) and answers its rows as objects. */
async function csvOf(user: TestUser, path: string, filename: RegExp) {
  const res = await call(path, { token: user.token });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  expect(res.status, text).toBe(200);
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  expect(res.headers.get("Content-Disposition")).toMatch(filename);
  const parsed = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return { header: parsed.meta.fields ?? [], rows: parsed.data };
}

const json = async <T>(user: TestUser, path: string) =>
  expectStatus<T>(await call(path, { token: user.token }), 200);

async function insertAlert(orgId: string, title: string, createdAt: number) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO alerts (id, org_id, title, message, severity, created_at, resolved) VALUES (?, ?, ?, ?, 'critical', ?, 0)",
  )
    .bind(id, orgId, title, 'Inverter, disconnected "hard"', createdAt)
    .run();
  return id;
}

describe("CSV exports mirror their JSON answers", () => {
  it("exports the alerts list with the same rows, times with offset and quoted text", async () => {
    const owner = await registerOwner();
    await insertAlert(owner.orgId, "=HYPERLINK(1)", Date.now() - 60_000);
    await insertAlert(owner.orgId, "Grid fault", Date.now() - 120_000);
    const alerts = await json<Alert[]>(owner, "/api/alerts?state=open");
    const { header, rows } = await csvOf(
      owner,
      "/api/alerts?state=open&format=csv",
      /filename="alerts\.csv"/,
    );
    expect(header).toContain("lost energy (kWh)");
    expect(rows.map((r) => r.id)).toEqual(alerts.map((a) => a.id));
    expect(alerts).toHaveLength(2);
    for (const [i, alert] of alerts.entries()) {
      const row = rows[i] ?? {};
      expect(row["created at"]).toMatch(OFFSET_TIME);
      expect(Date.parse(row["created at"] ?? "")).toBe(Date.parse(alert.createdAt));
      expect(row.message).toBe(alert.message);
      expect(row.severity).toBe(alert.severity);
    }
    // A formula-like cell is neutralised, not run by a spreadsheet.
    expect(rows[0]?.title).toBe("'=HYPERLINK(1)");
  });

  it("exports the same audit-log page as the JSON", async () => {
    const owner = await registerOwner();
    const page = await json<AuditPage>(owner, "/api/admin/logs?pageSize=5");
    expect(page.logs.length).toBeGreaterThan(0);
    const { rows } = await csvOf(
      owner,
      "/api/admin/logs?pageSize=5&format=csv",
      /filename="audit-log-1\.csv"/,
    );
    expect(rows.map((r) => [r.id, r.action, Date.parse(r.time ?? "")])).toEqual(
      page.logs.map((e) => [e.id, e.action, Date.parse(e.createdAt)]),
    );
    expect(rows.every((r) => OFFSET_TIME.test(r.time ?? ""))).toBe(true);
  });

  it("exports the System Performance table's columns for every system", async () => {
    const owner = await registerOwner();
    await connectProvider(owner, "solis");
    const metrics = await json<DashboardMetric[]>(owner, "/api/dashboard/metrics");
    const { header, rows } = await csvOf(
      owner,
      "/api/dashboard/metrics?format=csv",
      /filename="system-performance\.csv"/,
    );
    expect(header).toEqual(
      expect.arrayContaining([
        "system",
        "provider",
        "current power (W)",
        "today (Wh)",
        "status",
        "efficiency (%)",
      ]),
    );
    expect(rows).toHaveLength(metrics.length);
    for (const metric of metrics) {
      const row = rows.find((r) => r["system id"] === metric.systemId);
      expect(row?.system).toBe(metric.stationName);
      expect(Number(row?.["current power (W)"])).toBe(metric.currentPowerW);
      expect(Number(row?.["today (Wh)"])).toBe(metric.todayGenerationWh);
      expect(Number(row?.inverters)).toBe(metric.inverters.length);
      expect(row?.status).toBe(metric.status);
      if (metric.dataTime) expect(Date.parse(row?.["data time"] ?? "")).toBe(Date.parse(metric.dataTime));
    }
  });

  it("exports one system's power and energy series in the plant's zone, and refuses system=all", async () => {
    const owner = await registerOwner();
    const systems = await connectProvider(owner, "solis");
    const systemId = systems[0]?.id ?? "";
    const [record] = await json<AnalyticsRecord[]>(owner, `/api/analytics?system=${systemId}&range=7d`);
    const power = await csvOf(
      owner,
      `/api/analytics?system=${systemId}&range=7d&format=csv`,
      new RegExp(`filename="analytics-${systemId}-7d-power\\.csv"`),
    );
    expect(power.header).toEqual(["time", "power (W)"]);
    expect(power.rows.length).toBeGreaterThan(0);
    expect(
      power.rows.map((r) => [
        Date.parse(r.time ?? ""),
        r["power (W)"] === "" ? null : Number(r["power (W)"]),
      ]),
    ).toEqual(record?.series?.power.map((p) => [Date.parse(p.time), p.powerW]));
    expect(power.rows.every((r) => OFFSET_TIME.test(r.time ?? ""))).toBe(true);
    const energy = await csvOf(
      owner,
      `/api/analytics?system=${systemId}&range=7d&format=csv&series=energy`,
      /energy\.csv/,
    );
    expect(energy.rows.map((r) => r.date)).toEqual(record?.series?.energy.map((e) => e.date));
    await expectError(await call("/api/analytics?system=all&format=csv", { token: owner.token }), 400);
    await expectStatus(
      await call(`/api/analytics?system=${systemId}&format=xlsx`, { token: owner.token }),
      400,
    );
  });
});

describe("GET /api/reports/monthly-energy", () => {
  it("sums each site's systems' days of the month and each portfolio's sites, as JSON and CSV", async () => {
    const owner = await registerOwner();
    const systems = await connectProvider(owner, "solis");
    const [a, b, c] = systems.map((s) => s.id);
    const north = await createSite(owner, { name: "North" });
    const south = await createSite(owner, { name: "South", address: "Damrak 1, Amsterdam" });
    await attach(owner, north.id, a ?? "");
    await attach(owner, north.id, b ?? "");
    await attach(owner, south.id, c ?? "");
    await seedDailyRollups(a ?? "", [
      ["2024-02-29", 9_000],
      ["2024-03-01", 1_000],
      ["2024-03-31", 2_000],
      ["2024-04-01", 9_000],
    ]);
    await seedDailyRollups(b ?? "", [["2024-03-15", 500]]);
    await seedDailyRollups(c ?? "", [["2024-03-10", 4_000]]);
    const portfolio = await expectStatus<Portfolio>(
      await call("/api/portfolios", { method: "POST", token: owner.token, body: { name: "All" } }),
      201,
    );
    await expectStatus(
      await call(`/api/portfolios/${portfolio.id}/sites`, {
        method: "POST",
        token: owner.token,
        body: { siteIds: [north.id, south.id] },
      }),
      200,
    );

    const report = await json<MonthlyEnergy>(owner, "/api/reports/monthly-energy?month=2024-03");
    expect(report.month).toBe("2024-03");
    expect(report.sites).toEqual(
      expect.arrayContaining([
        { siteId: north.id, siteName: "North", systemCount: 2, energyWh: 3_500 },
        { siteId: south.id, siteName: "South", systemCount: 1, energyWh: 4_000 },
      ]),
    );
    expect(report.portfolios).toEqual([
      { portfolioId: portfolio.id, portfolioName: "All", siteCount: 2, energyWh: 7_500 },
    ]);

    const { header, rows } = await csvOf(
      owner,
      "/api/reports/monthly-energy?month=2024-03&format=csv",
      /filename="monthly-energy-2024-03\.csv"/,
    );
    expect(header).toContain("energy (Wh)");
    expect(rows.map((r) => [r.kind, r.id, Number(r["energy (Wh)"])])).toEqual([
      ...report.sites.map((s) => ["site", s.siteId, s.energyWh]),
      ...report.portfolios.map((p) => ["portfolio", p.portfolioId, p.energyWh]),
    ]);

    // Another organisation sees none of it.
    const other = await registerOwner("Other");
    expect(await json<MonthlyEnergy>(other, "/api/reports/monthly-energy?month=2024-03")).toEqual({
      month: "2024-03",
      sites: [],
      portfolios: [],
    });
  });

  it("answers 400 for a missing or malformed month", async () => {
    const owner = await registerOwner();
    for (const query of [
      "",
      "?month=2024-13",
      "?month=2024-3",
      "?month=March",
      "?month=2024-03&format=pdf",
    ]) {
      await expectError(await call(`/api/reports/monthly-energy${query}`, { token: owner.token }), 400);
    }
  });

  it("rejects missing, invalid and expired tokens", async () => {
    const owner = await registerOwner();
    await expectRejectsBadTokens({ method: "GET", path: "/api/reports/monthly-energy?month=2024-03" }, owner);
  });
});
