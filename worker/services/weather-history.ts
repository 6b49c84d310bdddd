import { WEATHER_ATTRIBUTION } from "../../schema/api/weather";
import type { WeatherHistory, WeatherHistoryHour } from "../../schema/api/weather-history";
import { findSite } from "../data/sites";
import {
  findSystemPlace,
  hourlyIrradianceAt,
  siteHourlyIrradiance,
  siteSystemsCapacity,
} from "../data/weather-history";
import { expectedEnergyWh, expectedPowerW, performanceRatio } from "../domain/energy/expected";
import { HOUR_MS, hourStartsOf, localDay } from "../domain/energy/local-day";
import { notFound } from "../lib/errors";
import { fleetStoreOf } from "../lib/fleet-store";
import { authorizeOrgAction } from "./authorization";
import type { OrgContext, UserContext } from "./context";

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const present = (values: (number | null)[]) => values.filter((value): value is number => value !== null);

/** Where and what a day of weather history is read for: a site's systems, or one plant. */
interface HistoryPlace {
  siteId: string | null;
  systemId: string | null;
  name: string;
  timezone: string;
  capacityW: number | null;
  systemIds: string[];
  /** Hourly irradiance over [startMs, endMs) at the place. */
  irradiance: (startMs: number, endMs: number) => Promise<{ hour_start: number; ghi_wm2: number }[]>;
}

/**
 * A site's generation against irradiance, hour by hour, over one day on the site's clock, whatever
 * the number of hours or systems: the site and its systems from D1, then hourly irradiance and the
 * systems' summed hourly power.
 */
export async function siteWeatherHistory(
  ctx: UserContext,
  siteId: string,
  date: string,
): Promise<WeatherHistory> {
  const org = authorizeOrgAction(ctx, "org:read");
  const [site, systems] = await Promise.all([
    findSite(org.db, org.user.orgId, siteId),
    siteSystemsCapacity(org.db, org.user.orgId, siteId),
  ]);
  if (!site) throw notFound("site", "Site");
  return placeWeatherHistory(org, date, {
    siteId: site.id,
    systemId: null,
    name: site.name,
    timezone: site.timezone,
    // The capacity the site's card shows: a manual figure wins over the systems' sum.
    capacityW: site.capacityKw !== null ? site.capacityKw * 1000 : systems.capacityW || null,
    systemIds: systems.systemIds,
    irradiance: (startMs, endMs) =>
      siteHourlyIrradiance(org.db, { orgId: org.user.orgId, siteId, startMs, endMs }),
  });
}

/**
 * One plant's day, site or not: at its site's place when it has one, else at its own
 * coordinates, so a plant without a site has weather history too.
 */
export async function systemWeatherHistory(
  ctx: UserContext,
  systemId: string,
  date: string,
): Promise<WeatherHistory> {
  const org = authorizeOrgAction(ctx, "org:read");
  const system = await findSystemPlace(org.db, org.user.orgId, systemId);
  if (!system) throw notFound("system", "System");
  const locationKey = system.location_key;
  return placeWeatherHistory(org, date, {
    siteId: null,
    systemId: system.id,
    name: system.name,
    timezone: system.timezone,
    capacityW: system.capacity_w,
    systemIds: [system.id],
    irradiance: async (startMs, endMs) =>
      locationKey === null ? [] : hourlyIrradianceAt(org.db, locationKey, startMs, endMs),
  });
}

async function placeWeatherHistory(
  org: OrgContext,
  date: string,
  place: HistoryPlace,
): Promise<WeatherHistory> {
  const day = localDay(date, place.timezone);
  const hourStarts = hourStartsOf(day);
  const [irradiance, power] = await Promise.all([
    place.irradiance(day.startMs, day.endMs),
    place.systemIds.length === 0
      ? []
      : fleetStoreOf(org).summedHourlyPower(org.user.orgId, place.systemIds, day.startMs, day.endMs),
  ]);
  const capacityW = place.capacityW;
  const powerByHour = new Map(power.map((row) => [row.hour_start, row.power_w]));
  const ghiByHour = new Map(irradiance.map((row) => [row.hour_start, row.ghi_wm2]));

  const hours: WeatherHistoryHour[] = hourStarts.map((start) => {
    const irradianceWm2 = ghiByHour.get(start) ?? null;
    const powerW = powerByHour.get(start) ?? null;
    return {
      time: new Date(start).toISOString(),
      irradianceWm2,
      powerW: powerW === null ? null : Math.round(powerW),
      expectedPowerW:
        irradianceWm2 === null || capacityW === null
          ? null
          : Math.round(expectedPowerW(capacityW, irradianceWm2)),
    };
  });

  // Totals count finished hours only: an hour in progress has a mean so far, not its energy.
  const finished = hourStarts
    .filter((start) => start + HOUR_MS <= org.now)
    .map((start) => ({ start, ghi: ghiByHour.get(start) ?? null, powerW: powerByHour.get(start) ?? null }));
  const ghis = present(finished.map((hour) => hour.ghi));
  const powers = present(finished.map((hour) => hour.powerW));
  // PR compares like with like: only hours with both a measured power and irradiance.
  const both = finished.filter((hour) => hour.ghi !== null && hour.powerW !== null);
  const bothEnergyWh = sum(present(both.map((hour) => hour.powerW)));
  const bothExpectedWh =
    capacityW === null ? 0 : expectedEnergyWh(capacityW, present(both.map((hour) => hour.ghi)));
  const lastFinished = finished[finished.length - 1];

  return {
    siteId: place.siteId,
    systemId: place.systemId,
    name: place.name,
    timezone: place.timezone,
    date: day.date,
    capacityW,
    systemCount: place.systemIds.length,
    hours,
    totals: {
      through: lastFinished === undefined ? null : new Date(lastFinished.start + HOUR_MS).toISOString(),
      irradiationWhM2: ghis.length === 0 ? null : Math.round(sum(ghis)),
      energyWh: powers.length === 0 ? null : Math.round(sum(powers)),
      expectedWh: ghis.length === 0 || capacityW === null ? null : expectedEnergyWh(capacityW, ghis),
      performanceRatio: performanceRatio(bothEnergyWh, bothExpectedWh),
    },
    source: WEATHER_ATTRIBUTION,
  };
}
