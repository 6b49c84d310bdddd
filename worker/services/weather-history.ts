import { WEATHER_ATTRIBUTION } from "../../schema/api/weather";
import type { WeatherHistory, WeatherHistoryHour } from "../../schema/api/weather-history";
import type { SiteRow } from "../../schema/tables";
import { toWeatherHour } from "../data/irradiance";
import { findSite } from "../data/sites";
import {
  findSystemPlace,
  hourlyIrradianceAt,
  siteHourlyIrradiance,
  siteSystemsCapacity,
} from "../data/weather-history";
import { HOUR_MS, hourStartsOf, localDay } from "../domain/energy/local-day";
import { pvSystemOf } from "../domain/solar/expectation";
import type { WeatherHour } from "../domain/solar/plane-of-array";
import { expectedHourWh, type PvSystem, performanceRatio } from "../domain/solar/pv-model";
import { notFound } from "../lib/errors";
import { fleetStoreOf } from "../lib/fleet-store";
import { authorizeOrgAction } from "./authorization";
import type { OrgContext, UserContext } from "./context";
import { expectedSystems } from "./expectation";

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
  /** The expected-power model of each of its systems (the one model: pv-model.ts). */
  models: () => Promise<PvSystem[]>;
  /** The weather service's hours over [startMs, endMs) at the place. */
  irradiance: (startMs: number, endMs: number) => Promise<Parameters<typeof toWeatherHour>[0][]>;
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
    models: () => siteModels(org, site, systems.systemIds),
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
    models: async () => modelsOf(org, [system.id]),
    irradiance: async (startMs, endMs) =>
      locationKey === null ? [] : hourlyIrradianceAt(org.db, locationKey, startMs, endMs),
  });
}

const modelsOf = async (org: OrgContext, systemIds: string[]) =>
  systemIds.length === 0
    ? []
    : (await expectedSystems(org, systemIds)).flatMap((system) => (system.model ? [system.model] : []));

/**
 * A site's systems' models; a capacity set by hand on the site wins over theirs: their models are
 * scaled to it, or, when none has a capacity, the site is modelled as one system at its place.
 */
async function siteModels(org: OrgContext, site: SiteRow, systemIds: string[]): Promise<PvSystem[]> {
  const models = await modelsOf(org, systemIds);
  if (site.capacityKw === null) return models;
  const manualW = site.capacityKw * 1000;
  const modelledW = models.reduce((total, model) => total + model.capacityW, 0);
  if (modelledW > 0) {
    const scale = manualW / modelledW;
    return models.map((model) => ({
      ...model,
      capacityW: model.capacityW * scale,
      acLimitW: model.acLimitW === null ? null : model.acLimitW * scale,
    }));
  }
  const whole = pvSystemOf(
    {
      capacityW: manualW,
      latitude: site.latitude,
      longitude: site.longitude,
      orientation: {
        system: {
          tiltDeg: site.tiltDeg,
          azimuthDeg: site.azimuthDeg,
          acLimitKw: site.acLimitKw,
          latitude: site.latitude,
        },
        site: null,
        invertersRatedW: null,
      },
    },
    null,
  );
  return whole ? [whole] : [];
}

const expectedWhOf = (models: PvSystem[], hour: WeatherHour) =>
  models.reduce((total, model) => total + expectedHourWh(model, hour), 0);

async function placeWeatherHistory(
  org: OrgContext,
  date: string,
  place: HistoryPlace,
): Promise<WeatherHistory> {
  const day = localDay(date, place.timezone);
  const hourStarts = hourStartsOf(day);
  const [irradiance, power, models] = await Promise.all([
    place.irradiance(day.startMs, day.endMs),
    place.systemIds.length === 0
      ? []
      : fleetStoreOf(org).summedHourlyPower(org.user.orgId, place.systemIds, day.startMs, day.endMs),
    place.models(),
  ]);
  const capacityW = place.capacityW;
  const powerByHour = new Map(power.map((row) => [row.hour_start, row.power_w]));
  const weatherByHour = new Map(irradiance.map((row) => [row.hour_start, toWeatherHour(row)]));
  const ghiByHour = new Map(irradiance.map((row) => [row.hour_start, row.ghi_wm2]));
  // The systems' summed expected energy of an hour (the one model: pv-model.ts), null without weather or a model.
  const expectedOf = (start: number): number | null => {
    const hour = weatherByHour.get(start);
    return hour === undefined || models.length === 0 ? null : expectedWhOf(models, hour);
  };

  const hours: WeatherHistoryHour[] = hourStarts.map((start) => {
    const irradianceWm2 = ghiByHour.get(start) ?? null;
    const powerW = powerByHour.get(start) ?? null;
    return {
      time: new Date(start).toISOString(),
      irradianceWm2,
      powerW: powerW === null ? null : Math.round(powerW),
      // An hour's mean power is its energy over the hour.
      expectedPowerW: expectedOf(start) === null ? null : Math.round(expectedOf(start) ?? 0),
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
  const bothExpectedWh = sum(present(both.map((hour) => expectedOf(hour.start))));
  const expectedHours = present(finished.map((hour) => expectedOf(hour.start)));
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
      expectedWh: expectedHours.length === 0 ? null : Math.round(sum(expectedHours)),
      performanceRatio: performanceRatio(bothEnergyWh, bothExpectedWh),
    },
    source: WEATHER_ATTRIBUTION,
  };
}
