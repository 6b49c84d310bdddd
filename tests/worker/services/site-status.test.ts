import { describe, expect, it } from "vitest";
import type { SiteRow } from "../../../schema/tables";
import { isDaylight, STALE_AFTER_MS } from "../../../worker/domain/fleet-rules";
import { timezoneAt } from "../../../worker/domain/geo/timezone-at";
import { type SystemView, siteLive, systemStatus } from "../../../worker/domain/sites";

const MINUTE = 60_000;
/** 21 June 2025, 12:00 in Amsterdam (10:00 UTC): broad daylight. */
const NOON = Date.UTC(2025, 5, 21, 10, 0);
/** The same day at 01:00 in Amsterdam (23:00 UTC the day before): night. */
const NIGHT = Date.UTC(2025, 5, 20, 23, 0);

const site: SiteRow = {
  id: "site-1",
  orgId: "org-1",
  name: "Canal",
  address: "Keizersgracht 123",
  location: null,
  latitude: 52.3752,
  longitude: 4.8862,
  city: "Amsterdam",
  state: null,
  country: null,
  timezone: "Europe/Amsterdam",
  locationSource: "verified",
  provider: null,
  capacityKw: null,
  acLimitKw: null,
  tiltDeg: null,
  azimuthDeg: null,
  estimatedYieldKwh: null,
  isActive: true,
  label: null,
  createdAt: 0,
  updatedAt: 0,
};

const system = (overrides: Partial<SystemView>): SystemView => ({
  id: "sys",
  siteId: site.id,
  provider: "solis",
  providerSystemId: "p-1",
  name: "Rooftop",
  address: null,
  latitude: null,
  longitude: null,
  capacityW: 10_000,
  state: "online",
  powerW: 1000,
  energyTodayWh: 2000,
  dataTime: NOON - MINUTE,
  inverterCount: 2,
  tiltDeg: null,
  azimuthDeg: null,
  acLimitKw: null,
  invertersRatedW: null,
  ...overrides,
});

describe("site status from its systems", () => {
  it("knows day from night at the site", () => {
    expect(isDaylight(site.latitude, site.longitude, NOON)).toBe(true);
    expect(isDaylight(site.latitude, site.longitude, NIGHT)).toBe(false);
  });

  it("counts an online system with data older than 30 minutes as offline in daylight only", () => {
    const stale = system({ dataTime: NOON - STALE_AFTER_MS - MINUTE });
    expect(systemStatus(stale, true, NOON)).toBe("offline");
    expect(systemStatus(stale, false, NOON)).toBe("online");
    expect(systemStatus(system({ dataTime: NOON - STALE_AFTER_MS + MINUTE }), true, NOON)).toBe("online");
    expect(systemStatus(system({ dataTime: null }), true, NOON)).toBe("offline");
    expect(systemStatus(system({ state: "alarm", dataTime: null }), true, NOON)).toBe("alarm");
  });

  it("is fault when any system is in alarm, online when one is online, offline otherwise", () => {
    const online = system({ id: "a" });
    const offline = system({ id: "b", state: "offline" });
    const alarm = system({ id: "c", state: "alarm" });
    expect(siteLive(site, [online, offline], NOON).status).toBe("online");
    expect(siteLive(site, [online, alarm], NOON).status).toBe("fault");
    expect(siteLive(site, [offline], NOON).status).toBe("offline");
    expect(siteLive(site, [], NOON).status).toBe("offline");
  });

  it("sums fresh power, today's energy since local midnight, and capacity unless set", () => {
    const a = system({ id: "a", powerW: 1500, energyTodayWh: 4000, capacityW: 6400 });
    const b = system({
      id: "b",
      powerW: 700,
      energyTodayWh: 1000,
      capacityW: 3600,
      dataTime: NOON - 2 * 3_600_000,
    });
    // 23:30 local the day before: yesterday's counter.
    const c = system({
      id: "c",
      powerW: 0,
      energyTodayWh: 9000,
      capacityW: null,
      dataTime: Date.UTC(2025, 5, 20, 21, 30),
    });
    const live = siteLive(site, [a, b, c], NOON);
    expect(live.currentPowerW).toBe(1500);
    expect(live.todayEnergyWh).toBe(5000);
    expect(live.capacityKw).toBe(10);
    expect(live.lastUpdateMs).toBe(NOON - MINUTE);
    expect(siteLive({ ...site, capacityKw: 25 }, [a, b], NOON).capacityKw).toBe(25);
  });
});

describe("time zone from coordinates", () => {
  it.each([
    [52.3752, 4.8862, "Europe/Amsterdam"],
    [33.4484, -112.074, "America/Phoenix"],
    [-33.8688, 151.2093, "Australia/Sydney"],
    [51.5074, -0.1278, "Europe/London"],
  ])("%f, %f is in %s", (latitude, longitude, zone) => {
    expect(timezoneAt(latitude, longitude)).toBe(zone);
  });
});
