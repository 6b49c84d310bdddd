import { env } from "cloudflare:workers";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import type { Alert } from "../../../schema/api/alerts";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import type { AuditPage } from "../../../schema/api/audit";
import type { MonthlyEnergy } from "../../../schema/api/exports";
import type { DashboardMetric } from "../../../schema/api/metrics";
import type { Portfolio } from "../../../schema/api/portfolios";
import { csvStream } from "../../../worker/lib/csv";
import { EXPORT_PAGE_ROWS } from "../../../worker/services/exports";
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

  it("exports the whole filtered audit log, every numbered page, newest first", async () => {
    const owner = await registerOwner();
    const page = await json<AuditPage>(owner, "/api/admin/logs?pageSize=5");
    expect(page.logs.length).toBeGreaterThan(0);
    const { rows } = await csvOf(owner, "/api/admin/logs?pageSize=5&format=csv", /filename="audit-log\.csv"/);
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

/** `count` rows straight into D1 in one batch; `at(i)` gives each its creation time. */
async function insertAlerts(orgId: string, count: number, at: (i: number) => number) {
  await env.DB.batch(
    Array.from({ length: count }, (_, i) =>
      env.DB.prepare(
        `INSERT INTO alerts (id, org_id, title, message, severity, created_at, resolved, lost_energy_wh)
         VALUES (?, ?, ?, 'Inverter fault', ?, ?, ?, ?)`,
      ).bind(
        crypto.randomUUID(),
        orgId,
        `Alert ${i}`,
        i % 3 === 0 ? "critical" : "warning",
        at(i),
        i % 4 === 0 ? 1 : 0,
        // Some without an estimate, many sharing one: the order's ties are broken by time, then id.
        i % 5 === 0 ? null : (i % 7) * 100,
      ),
    ),
  );
}

async function insertAuditEntries(orgId: string, count: number, at: (i: number) => number) {
  await env.DB.batch(
    Array.from({ length: count }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO audit_logs (id, org_id, actor_email, action, target_type, target_id, details, created_at) VALUES (?, ?, 'a@b.test', ?, 'site', ?, ?, ?)",
      ).bind(
        crypto.randomUUID(),
        orgId,
        i % 2 === 0 ? "site.update" : "site.create",
        `site-${i}`,
        JSON.stringify({ n: i, note: 'a, "quoted" value' }),
        at(i),
      ),
    ),
  );
}

describe("large exports stream in pages", () => {
  const rowCount = EXPORT_PAGE_ROWS * 2 + 37;

  it("streams every alert page by page (keyset through ties), row for row as the JSON in both orders", async () => {
    const owner = await registerOwner();
    // Groups of six alerts share one creation time, so pages end inside a tie.
    const base = Date.now() - 86_400_000;
    await insertAlerts(owner.orgId, rowCount, (i) => base + Math.floor(i / 6) * 1000);
    for (const query of ["state=all", "state=open&sort=lostEnergy", "severity=warning&sort=lostEnergy"]) {
      const alerts = await json<Alert[]>(owner, `/api/alerts?${query}&limit=500`);
      const { rows } = await csvOf(owner, `/api/alerts?${query}&format=csv`, /filename="alerts\.csv"/);
      expect(rows.map((r) => r.id)).toEqual(alerts.map((a) => a.id));
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
      expect(rows.map((r) => [r.title, r.severity, r["lost energy (kWh)"]])).toEqual(
        alerts.map((a) => [a.title, a.severity, a.lostEnergyKwh === null ? "" : String(a.lostEnergyKwh)]),
      );
    }
    const all = await csvOf(owner, "/api/alerts?format=csv&limit=1", /alerts\.csv/);
    // The CSV holds every alert the filters match; the JSON's limit does not cut it.
    expect(all.rows).toHaveLength(rowCount);
  });

  it("answers a streamed body (no length known in advance) with the same rows", async () => {
    const owner = await registerOwner();
    await insertAlerts(owner.orgId, rowCount, (i) => 1_700_000_000_000 + i);
    const res = await call("/api/alerts?format=csv", { token: owner.token });
    expect(res.headers.get("Content-Length")).toBeNull();
    const text = await res.text();
    expect(text.split("\r\n").filter(Boolean)).toHaveLength(1 + rowCount);
  });

  it("writes the BOM and header first, then one chunk per page, reading at most one page ahead", async () => {
    const pulled: number[] = [];
    async function* pages() {
      for (let page = 0; page < 5; page++) {
        pulled.push(page);
        yield page === 1
          ? []
          : [
              [`=p${page}`, page, null],
              ["a,b", 'say "hi"', true],
            ];
      }
    }
    const reader = csvStream(["name", "count (W)", "flag"], pages()).getReader();
    const decode = (chunk: Uint8Array | undefined) =>
      new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(chunk);
    const pageText = (page: number) => `"'=p${page}",${page},\r\n"a,b","say ""hi""",true\r\n`;
    expect(decode((await reader.read()).value)).toBe("\uFEFFname,count (W),flag\r\n");
    expect(pulled.length).toBeLessThanOrEqual(1);
    expect(decode((await reader.read()).value)).toBe(pageText(0));
    // Page 1 is empty and writes nothing; page 2 may be read ahead, pages 3 and 4 not yet.
    expect(pulled.length).toBeLessThanOrEqual(3);
    expect(decode((await reader.read()).value)).toBe(pageText(2));
    expect(decode((await reader.read()).value)).toBe(pageText(3));
    expect(decode((await reader.read()).value)).toBe(pageText(4));
    expect((await reader.read()).done).toBe(true);
    expect(pulled).toEqual([0, 1, 2, 3, 4]);
  });

  it("streams the audit log across pages equal to the JSON's pages joined, filters applied, no other organisation's entries", async () => {
    const owner = await registerOwner();
    const other = await registerOwner("Other");
    const base = Date.parse("2026-03-01T00:00:00Z");
    await insertAuditEntries(owner.orgId, rowCount, (i) => base + Math.floor(i / 4) * 60_000);
    await insertAuditEntries(other.orgId, 30, (i) => base + i);
    const query = "targetType=site&action=site.update";
    const joined: AuditPage["logs"] = [];
    for (let page = 1; ; page++) {
      const answer = await json<AuditPage>(owner, `/api/admin/logs?${query}&pageSize=200&page=${page}`);
      joined.push(...answer.logs);
      if (answer.logs.length < 200) break;
    }
    expect(joined).toHaveLength(Math.ceil(rowCount / 2));
    const { rows } = await csvOf(owner, `/api/admin/logs?${query}&format=csv`, /audit-log\.csv/);
    expect(
      rows.map((r) => [r.id, r.action, r["target id"], Date.parse(r.time ?? ""), r["details (JSON)"]]),
    ).toEqual(
      joined.map((e) => [e.id, e.action, e.targetId, Date.parse(e.createdAt), JSON.stringify(e.details)]),
    );
    const everything = await csvOf(owner, "/api/admin/logs?format=csv", /audit-log\.csv/);
    expect(everything.rows.filter((r) => r["actor email"] === "a@b.test")).toHaveLength(rowCount);
  });

  it("refuses another organisation's audit log before any CSV starts", async () => {
    const owner = await registerOwner();
    const other = await registerOwner("Other");
    await expectError(
      await call(`/api/admin/logs?format=csv&orgId=${other.orgId}`, { token: owner.token }),
      404,
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
