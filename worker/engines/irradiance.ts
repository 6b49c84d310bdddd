import { z } from "zod";
import {
  type IrradianceLocation,
  listDueIrradianceLocations,
  listIrradianceLocations,
  recordIrradianceFetch,
  upsertIrradianceHours,
  type WeatherHourRow,
} from "../data/irradiance";
import { HISTORY_DAYS } from "../domain/history/gaps";
import type { Env } from "../env";
import { createDb, runBatch } from "../lib/db";
import { localBudget } from "../providers/budget";
import { ProviderHttp } from "../providers/http";
import { DEFAULT_WEATHER_API_URL } from "./weather";

/** Locations are refreshed at most hourly; a run handles this many, oldest first. */
const REFRESH_MS = 3_600_000;
const LOCATIONS_PER_RUN = 50;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** A location's past is fetched this far back once (the history backfill's 30 days and a day's margin). */
export const WEATHER_HISTORY_DAYS = HISTORY_DAYS + 2;
/** Afterwards each refresh asks for the past two days again: the service revises its recent hours. */
const REFRESH_PAST_DAYS = 2;
const HOURLY = [
  "shortwave_radiation",
  "direct_radiation",
  "diffuse_radiation",
  "temperature_2m",
  "wind_speed_10m",
  "precipitation",
] as const;

const series = z.array(z.number().nullable()).optional();
const hourlySchema = z.object({
  hourly: z.object({
    time: z.array(z.string()),
    shortwave_radiation: z.array(z.number().nullable()),
    direct_radiation: series,
    diffuse_radiation: series,
    temperature_2m: series,
    wind_speed_10m: series,
    precipitation: series,
  }),
});

export const locationKey = (latitude: number, longitude: number) =>
  `${latitude.toFixed(2)},${longitude.toFixed(2)}`;

const weatherHttp = (fetcher?: (request: Request) => Promise<Response>) =>
  new ProviderHttp({
    fetch: fetcher,
    budget: localBudget({ perEndpoint: false, limits: [{ intervalMs: 100, burst: 1 }] }),
  });

/** Whether a location's stored past reaches back over the history backfill's days. */
export const hasWeatherHistory = (historyFrom: number | null, now: number) =>
  historyFrom !== null && historyFrom <= now - (WEATHER_HISTORY_DAYS - 1) * DAY_MS;

/**
 * Fetches one location's hours (the past `pastDays` and today) and stores the finished ones and the
 * one in progress (the service's value for it, replaced by the finished one at the next refresh, so
 * today's expectation runs to now): the radiation means of the hour before each time stamp,
 * temperature and wind at it, rain over it.
 */
async function fetchLocation(
  env: Env,
  http: ProviderHttp,
  location: IrradianceLocation,
  pastDays: number,
  now: number,
): Promise<void> {
  const db = createDb(env.DB);
  const base = (env.WEATHER_API_URL || DEFAULT_WEATHER_API_URL).replace(/\/+$/, "");
  const url = new URL(`${base}/v1/forecast`);
  url.searchParams.set("latitude", String(location.lat));
  url.searchParams.set("longitude", String(location.lng));
  url.searchParams.set("hourly", HOURLY.join(","));
  url.searchParams.set("wind_speed_unit", "ms");
  url.searchParams.set("past_days", String(pastDays));
  // Two days: a day's time stamps run from its 00:00 to its 23:00 and each closes the hour before
  // it, so with one the hour from 23:00 to midnight (stamped at tomorrow's 00:00) was never there.
  url.searchParams.set("forecast_days", "2");
  url.searchParams.set("timezone", "GMT");
  const { hourly } = hourlySchema.parse(await http.json({ url: url.toString() }, { authStatuses: [] }));
  const at = (values: (number | null)[] | undefined, i: number) => values?.[i] ?? null;
  const rows = hourly.time.flatMap((time, i): WeatherHourRow[] => {
    const ghi = hourly.shortwave_radiation[i];
    const end = Date.parse(`${time}:00Z`);
    if (ghi === null || ghi === undefined || end - HOUR_MS > now) return [];
    return [
      {
        hourStart: end - HOUR_MS,
        ghi,
        direct: at(hourly.direct_radiation, i),
        diffuse: at(hourly.diffuse_radiation, i),
        temperature: at(hourly.temperature_2m, i),
        wind: at(hourly.wind_speed_10m, i),
        precipitation: at(hourly.precipitation, i),
      },
    ];
  });
  const whole = rows.filter((row) => row.direct !== null && row.diffuse !== null);
  const historyFrom =
    pastDays >= WEATHER_HISTORY_DAYS && whole.length > 0 ? Math.min(...whole.map((r) => r.hourStart)) : null;
  await runBatch(db, [
    upsertIrradianceHours(db, location.key, rows),
    recordIrradianceFetch(db, location, now, historyFrom),
  ]);
}

/**
 * Fetches the weather service's hours for the places of sites and of plants without a site, for
 * expected energy, PR and losses: a place's first fetch brings its past WEATHER_HISTORY_DAYS days
 * (so days backfilled from vendors' history have their weather), later ones the last two days and
 * today. One call per location per hour, shared by every site, plant and organisation there.
 */
export async function refreshIrradiance({
  env,
  now,
  fetch: fetcher,
}: {
  env: Env;
  now: number;
  fetch?: (request: Request) => Promise<Response>;
}) {
  const db = createDb(env.DB);
  const due = await listDueIrradianceLocations(db, now - REFRESH_MS, LOCATIONS_PER_RUN);
  const http = weatherHttp(fetcher);
  let refreshed = 0;
  for (const location of due) {
    const pastDays = hasWeatherHistory(location.historyFrom, now) ? REFRESH_PAST_DAYS : WEATHER_HISTORY_DAYS;
    try {
      await fetchLocation(env, http, location, pastDays, now);
      refreshed++;
    } catch (error) {
      // One location failing leaves its older hours in place and is tried again next run.
      console.warn(
        JSON.stringify({ msg: "irradiance refresh failed", location: location.key, error: String(error) }),
      );
    }
  }
  return { refreshed, due: due.length };
}

/**
 * The past of the given places (location keys) whose stored hours do not reach back over the
 * history backfill yet, fetched now: a plant's history comes with its weather, not an hour later.
 * Answers the places fetched; a failing place is left to the hourly refresh.
 */
export async function fetchWeatherHistory({
  env,
  now,
  locationKeys,
  fetch: fetcher,
}: {
  env: Env;
  now: number;
  locationKeys: string[];
  fetch?: (request: Request) => Promise<Response>;
}): Promise<number> {
  if (locationKeys.length === 0) return 0;
  const db = createDb(env.DB);
  const lacking = (await listIrradianceLocations(db, locationKeys)).filter(
    (location) => !hasWeatherHistory(location.historyFrom, now),
  );
  const http = weatherHttp(fetcher);
  let fetched = 0;
  for (const location of lacking) {
    try {
      await fetchLocation(env, http, location, WEATHER_HISTORY_DAYS, now);
      fetched++;
    } catch (error) {
      console.warn(
        JSON.stringify({ msg: "weather history failed", location: location.key, error: String(error) }),
      );
    }
  }
  return fetched;
}
