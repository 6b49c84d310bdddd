import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import { type DashboardMetric, METRICS_PAGE_SIZE } from "../../../schema/api/metrics";
import { timezoneAt } from "../../../worker/domain/geo/timezone-at";
import { refreshIrradiance } from "../../../worker/engines/irradiance";
import worker from "../../../worker/index";
import { gunzipText } from "../../../worker/lib/gzip";
import { insertSystemsInBulk } from "../fleet/fleet-fixtures";
import { attach, connectProvider, createSite, patchStoreLive, storeOf, storeSql } from "../fleet-helpers";
import { BASE, call, expectError, expectRejectsBadTokens, expectStatus, registerOwner } from "../helpers";

const metricsOf = async (token: string) =>
  expectStatus<DashboardMetric[]>(await call("/api/dashboard/metrics", { token }), 200);

describe("GET /api/dashboard/metrics", () => {
  it("sends the answer gzipped to a client that takes gzip and plain to one that does not", async () => {
    const owner = await registerOwner();
    await connectProvider(owner, "solis");
    const request = (acceptEncoding: string) =>
      new Request(`${BASE}/api/dashboard/metrics`, {
        headers: { Authorization: `Bearer ${owner.token}`, "Accept-Encoding": acceptEncoding },
      });
    // The worker's own response, before any fetch client inflates it.
    const plain = await worker.fetch(request("identity"), env, createExecutionContext());
    expect(plain.headers.get("Content-Encoding")).toBeNull();
    const plainText = await plain.text();
    expect(JSON.parse(plainText)).toHaveLength(3);
    const zipped = await worker.fetch(request("gzip, deflate, br"), env, createExecutionContext());
    expect(zipped.headers.get("Content-Encoding")).toBe("gzip");
    expect(zipped.headers.get("Vary")).toContain("Accept-Encoding");
    const bytes = new Uint8Array(await zipped.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    expect(JSON.parse(await gunzipText(bytes))).toEqual(JSON.parse(plainText));
    // Through fetch, as a browser reads it: inflated to the same JSON.
    const fetched = await call("/api/dashboard/metrics", {
      token: owner.token,
      headers: { "Accept-Encoding": "gzip" },
    });
    expect(await fetched.json()).toEqual(JSON.parse(plainText));
  });

  it("answers 304 without a body to a client holding the current tag, and the new answer after a change", async () => {
    const owner = await registerOwner();
    const other = await registerOwner("Other");
    const systems = await connectProvider(owner, "solis");
    const first = await call("/api/dashboard/metrics", { token: owner.token });
    expect(first.status).toBe(200);
    const tag = first.headers.get("ETag");
    expect(tag).toMatch(/^".+"$/);
    expect(first.headers.get("Cache-Control")).toBe("private, no-cache");
    const firstEntries = (await first.json()) as DashboardMetric[];

    const revalidated = await call("/api/dashboard/metrics", {
      token: owner.token,
      headers: { "If-None-Match": `W/"stale", ${tag}` },
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("ETag")).toBe(tag);
    expect(await revalidated.text()).toBe("");

    // Another organisation naming this tag gets its own (empty) fleet, never a 304 on ours.
    const foreign = await call("/api/dashboard/metrics", {
      token: other.token,
      headers: { "If-None-Match": tag ?? "" },
    });
    expect(foreign.status).toBe(200);
    expect(await foreign.json()).toEqual([]);

    // A change to what the answer holds: the system joins a site, so the old tag no longer matches.
    const site = await createSite(owner);
    const systemId = systems[0]?.id ?? "";
    await attach(owner, site.id, systemId);
    const changed = await call("/api/dashboard/metrics", {
      token: owner.token,
      headers: { "If-None-Match": tag ?? "" },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(tag);
    const entries = (await changed.json()) as DashboardMetric[];
    expect(entries.find((m) => m.systemId === systemId)?.siteId).toBe(site.id);
    expect(firstEntries.find((m) => m.systemId === systemId)?.siteId).toBeNull();
  });

  it("answers a fleet of more than 1,000 systems a page at a time, with links to the others and the total", async () => {
    const owner = await registerOwner();
    const systemCount = 2 * METRICS_PAGE_SIZE + 345;
    const now = Date.now();
    await insertSystemsInBulk(owner.orgId, systemCount, now);
    const pageAt = async (page: number) => {
      const res = await call(`/api/dashboard/metrics?page=${page}`, { token: owner.token });
      expect(res.status).toBe(200);
      return { res, entries: (await res.json()) as DashboardMetric[] };
    };
    const first = await call("/api/dashboard/metrics", { token: owner.token });
    const firstEntries = (await first.json()) as DashboardMetric[];
    expect(firstEntries).toHaveLength(METRICS_PAGE_SIZE);
    expect(first.headers.get("X-Total-Count")).toBe(String(systemCount));
    expect(first.headers.get("Link")).toBe(
      '</api/dashboard/metrics?page=1>; rel="first", </api/dashboard/metrics?page=2>; rel="next", </api/dashboard/metrics?page=3>; rel="last"',
    );
    const second = await pageAt(2);
    expect(second.entries).toHaveLength(METRICS_PAGE_SIZE);
    expect(second.res.headers.get("Link")).toContain('</api/dashboard/metrics?page=1>; rel="prev"');
    expect(second.res.headers.get("ETag")).not.toBe(first.headers.get("ETag"));
    const last = await pageAt(3);
    expect(last.entries).toHaveLength(345);
    expect(last.res.headers.get("Link")).not.toContain('rel="next"');
    // Every system once over the pages, in the answer's order (by name here).
    const ids = [...firstEntries, ...second.entries, ...last.entries].map((m) => m.systemId);
    expect(new Set(ids).size).toBe(systemCount);
    const names = [...firstEntries, ...second.entries, ...last.entries].map((m) => m.stationName);
    expect(names).toEqual([...names].sort());
    expect((await pageAt(4)).entries).toEqual([]);
    // A page's tag names that page only: page 1's tag does not make page 2 a 304.
    const otherPage = await call("/api/dashboard/metrics?page=2", {
      token: owner.token,
      headers: { "If-None-Match": first.headers.get("ETag") ?? "" },
    });
    expect(otherPage.status).toBe(200);
    // The CSV export is every system, not a page.
    const csv = await call("/api/dashboard/metrics?format=csv", { token: owner.token });
    expect((await csv.text()).split("\r\n").filter(Boolean)).toHaveLength(1 + systemCount);
  });

  it("refuses a page that is not a positive whole number, or an unknown parameter, and changes nothing", async () => {
    const owner = await registerOwner();
    for (const query of ["page=0", "page=-1", "page=1.5", "page=two", "pageSize=10"]) {
      const error = await expectError(
        await call(`/api/dashboard/metrics?${query}`, { token: owner.token }),
        400,
        "Invalid input",
      );
      expect(error.code, query).toBe("validation_failed");
    }
  });

  it("answers one normalised entry per system from what the sync stored", async () => {
    const owner = await registerOwner();
    await connectProvider(owner, "solis");
    const metrics = await metricsOf(owner.token);
    expect(metrics).toHaveLength(3);
    // Live values are in the organisation's fleet store (its systems' newest points); capacity is
    // D1's metadata, mirrored there.
    const mirrored = await storeSql<{ id: string; capacity_w: number }>(
      owner.orgId,
      "SELECT system_id AS id, capacity_w FROM systems",
    );
    const live = await storeOf(owner.orgId).liveValues(
      owner.orgId,
      mirrored.map((r) => r.id),
    );
    const stored = mirrored.map((r) => {
      const values = live.find((l) => l.systemId === r.id);
      return { ...r, power_w: values?.powerW ?? null, energy_today_wh: values?.energyTodayWh ?? null };
    });
    const capacities = await env.DB.prepare("SELECT id, capacity_w FROM monitoring_systems WHERE org_id = ?")
      .bind(owner.orgId)
      .all<{ id: string; capacity_w: number }>();
    expect(capacities.results.map((r) => [r.id, r.capacity_w]).sort()).toEqual(
      stored.map((r) => [r.id, r.capacity_w]).sort(),
    );
    for (const m of metrics) {
      const row = stored.find((r) => r.id === m.systemId);
      expect(row).toBeDefined();
      expect(m.currentPowerW).toBe(row?.power_w);
      expect(m.pac).toBe(m.currentPowerW);
      expect(m.capacity).toBe((row?.capacity_w ?? 0) / 1000);
      expect(m.efficiency).toBeCloseTo(((row?.power_w ?? 0) / (row?.capacity_w ?? 1)) * 100, 1);
      expect(m.todayGenerationWh).toBe(row?.energy_today_wh);
      expect(m.etoday).toBeCloseTo((row?.energy_today_wh ?? 0) / 1000, 6);
      expect(m.provider).toBe("solis");
      expect(m.inverters.length).toBeGreaterThan(0);
      expect(m.stale).toBe(false);
      // SolisCloud gives coordinates but no zone: the zone there counts the system's local days.
      const { latitude, longitude } = m.location;
      expect(latitude).not.toBeNull();
      expect(m.timezone).toBe(timezoneAt(latitude ?? 0, longitude ?? 0));
      expect(m.timezone).toMatch(/^Europe\//);
    }
  });

  it("keeps organisations apart, and the fallback totals match the entries", async () => {
    const owner = await registerOwner();
    const other = await registerOwner("Other");
    await connectProvider(owner, "solis");
    expect(await metricsOf(other.token)).toEqual([]);
    const metrics = await metricsOf(owner.token);
    const fallback = await expectStatus<{
      matchedSites: number;
      totalCurrentPower: number;
      totalTodayGeneration: number;
    }>(await call("/api/debug/dashboard-test", { token: owner.token }), 200);
    expect(fallback.matchedSites).toBe(3);
    expect(fallback.totalCurrentPower).toBe(metrics.reduce((s, m) => s + m.currentPowerW, 0));
    expect(fallback.totalTodayGeneration).toBeCloseTo(
      metrics.reduce((s, m) => s + m.todayGenerationWh, 0) / 1000,
      3,
    );
    expect(await expectStatus(await call("/api/debug/dashboard-test", { token: other.token }), 200)).toEqual({
      matchedSites: 0,
      totalCurrentPower: 0,
      totalTodayGeneration: 0,
    });
  });

  it("marks a system stale when its newest data is over 30 minutes old in daylight", async () => {
    const owner = await registerOwner();
    await connectProvider(owner, "solis");
    // A system without a vendor fault right now (the sandbox faults inverters at set hours): a fault outranks stale.
    const first = (await metricsOf(owner.token)).find((m) => m.status !== "fault");
    expect(first).toBeDefined();
    // Put the system at a place where the sun is up now, with data from an hour ago.
    const sunnyLongitude = (((12 - new Date().getUTCHours()) * 15 + 540) % 360) - 180;
    await env.DB.prepare("UPDATE monitoring_systems SET latitude = 0, longitude = ? WHERE id = ?")
      .bind(sunnyLongitude, first?.systemId ?? "")
      .run();
    await patchStoreLive(owner.orgId, first?.systemId ?? "", { dataTime: Date.now() - 3_600_000 });
    const again = (await metricsOf(owner.token)).find((m) => m.systemId === first?.systemId);
    expect(again).toMatchObject({ stale: true, status: "stale" });
  });

  it("needs a token", async () => {
    const owner = await registerOwner();
    await expectRejectsBadTokens({ method: "GET", path: "/api/dashboard/metrics" }, owner);
    await expectRejectsBadTokens({ method: "GET", path: "/api/debug/dashboard-test" }, owner);
  });
});

describe("GET /api/analytics", () => {
  it("lists every system for system=all and gives one system's 7-day series with expected energy and PR", async () => {
    const owner = await registerOwner();
    const systems = await connectProvider(owner, "solis");
    const site = await createSite(owner);
    await attach(owner, site.id, systems[0]?.id ?? "");
    const all = await expectStatus<AnalyticsRecord[]>(
      await call("/api/analytics?system=all&range=24h", { token: owner.token }),
      200,
    );
    expect(all).toHaveLength(3);
    expect(all.every((r) => r.series === undefined)).toBe(true);

    const refreshedAt = Date.now();
    const refreshed = await refreshIrradiance({ env, now: refreshedAt });
    expect(refreshed.refreshed).toBeGreaterThanOrEqual(1);
    // The hour in progress is kept (the service's value for it, so today's expectation runs to
    // now), and no hour after it.
    const stored = await env.DB.prepare(
      `SELECT max(hour_start) AS latest FROM irradiance_hourly
       WHERE location_key IN (SELECT location_key FROM irradiance_fetches WHERE fetched_at = ?)`,
    )
      .bind(refreshedAt)
      .first<{ latest: number | null }>();
    expect(stored?.latest).toBe(Math.floor(refreshedAt / 3_600_000) * 3_600_000);
    const [detail] = await expectStatus<AnalyticsRecord[]>(
      await call(`/api/analytics?system=${systems[0]?.id}&range=7d`, { token: owner.token }),
      200,
    );
    expect(detail?.siteId).toBe(site.id);
    expect(detail?.timezone).toBe("Europe/Amsterdam");
    expect(detail?.series?.energy).toHaveLength(7);
    expect(detail?.series?.power.length).toBeGreaterThanOrEqual(1);
    const today = detail?.series?.energy.at(-1);
    expect(today?.energyWh).toBe(detail?.todayGenerationWh);
    // Past days have measured irradiance, so an expectation exists for them.
    expect(detail?.series?.energy.slice(0, 6).every((d) => d.expectedWh !== null && d.expectedWh > 0)).toBe(
      true,
    );
  });

  it("answers 404 for another organisation's system and 400 for an unknown range", async () => {
    const owner = await registerOwner();
    const other = await registerOwner("Other");
    const systems = await connectProvider(owner, "solis");
    await expectStatus(
      await call(`/api/analytics?system=${systems[0]?.id}&range=7d`, { token: other.token }),
      404,
    );
    await expectStatus(await call("/api/analytics?system=all&range=2w", { token: owner.token }), 400);
  });
});
