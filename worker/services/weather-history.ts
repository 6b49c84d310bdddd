import { WEATHER_ATTRIBUTION } from "../../schema/api/weather";
import type { WeatherHistory, WeatherHistoryHour } from "../../schema/api/weather-history";
import { findSite } from "../data/sites";
import { siteHourlyIrradiance, siteSystemsCapacity } from "../data/weather-history";
import { expectedEnergyWh, expectedPowerW, performanceRatio } from "../lib/energy/expected";
import { HOUR_MS, hourStartsOf, localDay } from "../lib/energy/local-day";
import { notFound } from "../lib/errors";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";
import { fleetStoreOf } from "./fleet-store";

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const present = (values: (number | null)[]) => values.filter((value): value is number => value !== null);

/**
 * A site's generation against irradiance, hour by hour, over one day on the site's clock, whatever
 * the number of hours or systems: the site, then its systems and hourly irradiance from D1
 * together, then the systems' summed hourly power from the organisation's fleet store.
 */
export async function siteWeatherHistory(
  ctx: UserContext,
  siteId: string,
  date: string,
): Promise<WeatherHistory> {
  const org = authorizeOrgAction(ctx, "org:read");
  const site = await findSite(org.db, org.user.orgId, siteId);
  if (!site) throw notFound("site", "Site");
  const day = localDay(date, site.timezone);
  const hourStarts = hourStartsOf(day);
  const window = { orgId: org.user.orgId, siteId, startMs: day.startMs, endMs: day.endMs };
  const [systems, irradiance] = await Promise.all([
    siteSystemsCapacity(org.db, org.user.orgId, siteId),
    siteHourlyIrradiance(org.db, window),
  ]);
  const power =
    systems.systemIds.length === 0
      ? []
      : await fleetStoreOf(org).summedHourlyPower(org.user.orgId, systems.systemIds, day.startMs, day.endMs);
  // The capacity the site's card shows: a manual figure wins over the systems' sum.
  const capacityW = site.capacityKw !== null ? site.capacityKw * 1000 : systems.capacityW || null;
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
    siteId: site.id,
    siteName: site.name,
    timezone: site.timezone,
    date: day.date,
    capacityW,
    systemCount: systems.systemIds.length,
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
