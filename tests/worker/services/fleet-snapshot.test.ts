import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { FleetSeries } from "../../../schema/api/fleet-series";
import type { DashboardMetric } from "../../../schema/api/metrics";
import { createDb } from "../../../worker/lib/db";
import type { OrgContext } from "../../../worker/services/context";
import { fleetSnapshot } from "../../../worker/services/fleet-snapshot";
import { MAX_AGE_MS as SNAPSHOT_MAX_AGE_MS } from "../../../worker/services/org-read-cache";
import { attach, connectProvider, createSite, sunnyLongitudeNow } from "../fleet-helpers";
import { call, expectStatus, registerOwner, type TestUser } from "../helpers";

const metricsOf = async (token: string) =>
  expectStatus<DashboardMetric[]>(await call("/api/dashboard/metrics", { token }), 200);

function orgContext(owner: TestUser, now: number): OrgContext {
  return {
    db: createDb(env.DB),
    env,
    now,
    ip: null,
    origin: "http://sunfleet.test",
    user: {
      id: owner.id,
      email: owner.email,
      fullName: "Owner",
      role: "orgOwner",
      orgId: owner.orgId,
      orgName: "Snapshot Co",
      permissions: null,
    },
  };
}

/**
 * The dashboard answer is a cached snapshot per organisation; these prove it is never stale
 * after a write, whichever code path wrote, and never lags the clock by more than its max age.
 */
describe("fleet snapshot", () => {
  it("reflects writes at once: a sync's values, a site attach, irradiance, a site and a system deleted", async () => {
    const owner = await registerOwner();
    const [system] = await connectProvider(owner, "solis");
    if (!system) throw new Error("the sandbox account has systems");
    const before = await metricsOf(owner.token);
    expect(before).toHaveLength(3);

    // A write outside the services (as a sync's batch does) bumps the version through the triggers.
    await env.DB.prepare("UPDATE monitoring_systems SET power_w = 1234 WHERE id = ?").bind(system.id).run();
    expect((await metricsOf(owner.token)).find((m) => m.systemId === system.id)?.currentPowerW).toBe(1234);

    const site = await createSite(owner);
    await attach(owner, site.id, system.id);
    const attached = (await metricsOf(owner.token)).find((m) => m.systemId === system.id);
    expect(attached?.siteName).toBe(site.name);
    expect(attached?.expectedTodayWh).toBeNull();

    // Irradiance for the site's location (shared across organisations) gives an expectation.
    const now = Date.now();
    await env.DB.prepare(
      "INSERT INTO irradiance_hourly (location_key, hour_start, ghi_wm2) VALUES ('52.38,4.89', ?, 500)",
    )
      .bind(Math.floor(now / 3_600_000) * 3_600_000 - 3_600_000)
      .run();
    const expected = (await metricsOf(owner.token)).find((m) => m.systemId === system.id);
    expect(expected?.expectedTodayWh).toBeGreaterThan(0);

    await expectStatus(await call(`/api/sites/${site.id}`, { method: "DELETE", token: owner.token }), 200);
    const detached = (await metricsOf(owner.token)).find((m) => m.systemId === system.id);
    expect(detached?.siteName).toBeNull();

    // A deleted system (its inverters go by cascade) leaves the answer at once.
    await env.DB.prepare("DELETE FROM monitoring_systems WHERE id = ?").bind(system.id).run();
    expect((await metricsOf(owner.token)).map((m) => m.systemId)).not.toContain(system.id);
  });

  it("gives the fleet series from fresh rollups: a rollup write shows at once", async () => {
    const owner = await registerOwner();
    const [system] = await connectProvider(owner, "solis");
    if (!system) throw new Error("the sandbox account has systems");
    const seriesOf = async () =>
      expectStatus<FleetSeries>(await call("/api/dashboard/series?tz=UTC", { token: owner.token }), 200);
    const before = await seriesOf();
    const hour = await env.DB.prepare(
      "SELECT hour_start FROM system_energy_hourly WHERE system_id = ? ORDER BY hour_start DESC LIMIT 1",
    )
      .bind(system.id)
      .first<{ hour_start: number }>();
    if (!hour) throw new Error("the sync rolled up its readings");
    const time = new Date(hour.hour_start).toISOString();
    const solisAt = (series: FleetSeries) =>
      series.generation.find((p) => p.time === time)?.values.solis ?? 0;
    await env.DB.prepare(
      "UPDATE system_energy_hourly SET avg_power_w = avg_power_w + 1000 WHERE system_id = ? AND hour_start = ?",
    )
      .bind(system.id, hour.hour_start)
      .run();
    expect(solisAt(await seriesOf()) - solisAt(before)).toBe(1000);
  });

  it("is reused while nothing changed, and never for another organisation", async () => {
    const owner = await registerOwner();
    const other = await registerOwner("Other");
    await connectProvider(owner, "solis");
    const now = Date.now();
    const first = await fleetSnapshot(orgContext(owner, now));
    const second = await fleetSnapshot(orgContext(owner, now + 1_000));
    expect(second).toBe(first);
    const others = await fleetSnapshot(orgContext(other, now + 1_000));
    expect(others.metrics).toEqual([]);
    expect(others).not.toBe(first);
  });

  it(`recomputes time-driven fields once the snapshot is ${SNAPSHOT_MAX_AGE_MS / 1000} s old`, async () => {
    const owner = await registerOwner();
    const [system] = await connectProvider(owner, "solis");
    if (!system) throw new Error("the sandbox account has systems");
    const now = Date.now();
    // In daylight, with data 29.5 minutes old: fresh now, stale a minute later.
    await env.DB.prepare(
      "UPDATE monitoring_systems SET data_time = ?, latitude = 0, longitude = ? WHERE id = ?",
    )
      .bind(now - 29.5 * 60_000, sunnyLongitudeNow(), system.id)
      .run();
    const fresh = await fleetSnapshot(orgContext(owner, now));
    expect(fresh.metrics.find((m) => m.metric.systemId === system.id)?.metric.stale).toBe(false);
    const within = await fleetSnapshot(orgContext(owner, now + SNAPSHOT_MAX_AGE_MS - 1));
    expect(within).toBe(fresh);
    const later = await fleetSnapshot(orgContext(owner, now + SNAPSHOT_MAX_AGE_MS));
    expect(later).not.toBe(fresh);
    expect(later.metrics.find((m) => m.metric.systemId === system.id)?.metric).toMatchObject({
      stale: true,
      status: "stale",
    });
    expect(JSON.parse(later.json)).toEqual(later.metrics.map((m) => m.metric));
  });
});
