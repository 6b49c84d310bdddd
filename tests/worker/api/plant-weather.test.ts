import { env } from "cloudflare:workers";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import type { WeatherHistory } from "../../../schema/api/weather-history";
import { refreshIrradiance } from "../../../worker/engines/irradiance";
import { meteredD1 } from "../d1-meter";
import { connectProvider } from "../fleet-helpers";
import { call, expectStatus, registerOwner } from "../helpers";

/** Runs the irradiance job until nothing is due (each run takes a bounded number of places). */
async function refreshAllIrradiance(now: number) {
  for (let run = 0; run < 20; run++) {
    const { due } = await refreshIrradiance({ env, now });
    if (due === 0) return;
  }
  throw new Error("irradiance still due after 20 runs");
}

describe("plants without a site have weather and analytics", () => {
  it("with autoCreateSites off, a plant with coordinates gets irradiance, expected energy and its day's weather", async () => {
    const owner = await registerOwner();
    const systems = await connectProvider(owner, "solis", { autoSites: false });
    const sites = await expectStatus<unknown[]>(await call("/api/sites", { token: owner.token }), 200);
    expect(sites).toEqual([]);
    const plant = systems.find((system) => system.latitude !== null && system.longitude !== null);
    expect(plant, "a sandbox plant with coordinates").toBeDefined();
    const id = plant?.id ?? "";

    const now = Date.now();
    await refreshAllIrradiance(now);
    const key = `${plant?.latitude?.toFixed(2)},${plant?.longitude?.toFixed(2)}`;
    const fetched = await env.DB.prepare("SELECT count(*) AS n FROM irradiance_hourly WHERE location_key = ?")
      .bind(key)
      .first<{ n: number }>();
    expect(fetched?.n).toBeGreaterThan(24);

    const [record] = await expectStatus<AnalyticsRecord[]>(
      await call(`/api/analytics?system=${id}&range=7d`, { token: owner.token }),
      200,
    );
    expect(record?.siteId).toBeNull();
    // Past days have measured irradiance at the plant's own place, so an expectation exists.
    const past = record?.series?.energy.slice(0, 6) ?? [];
    expect(past).toHaveLength(6);
    expect(past.every((day) => day.expectedWh !== null && day.expectedWh > 0)).toBe(true);

    const yesterday = DateTime.fromMillis(now, { zone: record?.timezone ?? "UTC" })
      .minus({ days: 1 })
      .toISODate();
    const history = await expectStatus<WeatherHistory>(
      await call(`/api/systems/${id}/weather-history?date=${yesterday}`, { token: owner.token }),
      200,
    );
    expect(history).toMatchObject({
      siteId: null,
      systemId: id,
      name: plant?.name,
      timezone: record?.timezone,
    });
    expect(history.hours.some((hour) => hour.irradianceWm2 !== null && hour.irradianceWm2 > 0)).toBe(true);
    expect(history.totals.expectedWh).toBeGreaterThan(0);

    // An hour on, the refresh asks for the two past days again: only the hours that are new (or
    // that the service revised) are written, not the 48 it already holds.
    const { db, meter } = meteredD1();
    const later = await refreshIrradiance({ env: { ...env, DB: db }, now: now + 3_601_000 });
    expect(later.refreshed).toBeGreaterThan(0);
    const hoursWritten = [...meter.bySql]
      .filter(([statement]) => statement.startsWith("INSERT INTO irradiance_hourly"))
      .reduce((sum, [, rows]) => sum + rows, 0);
    // At most two new hours a place, each a row and its two index entries (it was 114 a place).
    expect(hoursWritten).toBeGreaterThan(0);
    expect(hoursWritten).toBeLessThanOrEqual(later.refreshed * 2 * 3);
  });

  it("stores the hour in progress in the last hour of the UTC day too (stamped at the next day's midnight)", async () => {
    const owner = await registerOwner();
    await connectProvider(owner, "solis", { autoSites: false });
    const lastHour = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 23 * 3_600_000;
    await refreshAllIrradiance(lastHour + 30 * 60_000);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM irradiance_hourly WHERE hour_start = ?")
      .bind(lastHour)
      .first<{ n: number }>();
    expect(stored?.n).toBeGreaterThan(0);
  });
});
