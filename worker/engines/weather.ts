import { z } from "zod";
import { type CurrentWeather, WEATHER_ATTRIBUTION } from "../../schema/api/weather";
import type { Env } from "../env";
import { ApiError } from "../lib/errors";
import { ProviderError } from "../providers/errors";
import { ProviderHttp } from "../providers/http";

export const DEFAULT_WEATHER_API_URL = "https://api.open-meteo.com";
const CACHE_SECONDS = 10 * 60;

const forecastSchema = z.object({
  current: z.object({
    time: z.string(),
    temperature_2m: z.number(),
    relative_humidity_2m: z.number(),
    cloud_cover: z.number(),
    wind_speed_10m: z.number(),
    shortwave_radiation: z.number(),
    uv_index: z.number().nullable().optional(),
  }),
});

/** Coordinates rounded to 0.01° (about 1 km): nearby requests share one cached answer. */
const round = (value: number) => Math.round(value * 100) / 100;

const weatherBase = (env: Env) => (env.WEATHER_API_URL || DEFAULT_WEATHER_API_URL).replace(/\/+$/, "");

async function fetchCurrent(
  env: Env,
  latitude: number,
  longitude: number,
  fetcher?: (r: Request) => Promise<Response>,
) {
  const url = new URL(`${weatherBase(env)}/v1/forecast`);
  url.searchParams.set("latitude", String(latitude));
  url.searchParams.set("longitude", String(longitude));
  url.searchParams.set(
    "current",
    "temperature_2m,relative_humidity_2m,cloud_cover,wind_speed_10m,shortwave_radiation,uv_index",
  );
  url.searchParams.set("timezone", "GMT");
  // Someone is waiting for this answer: a failing weather service is reported, not retried.
  const http = new ProviderHttp({ fetch: fetcher, retry: { retries: 0, maxTotalWaitMs: 0, baseDelayMs: 0 } });
  try {
    const parsed = forecastSchema.safeParse(await http.json({ url: url.toString() }, { authStatuses: [] }));
    if (!parsed.success)
      throw new ProviderError("malformed", "the weather service sent an unexpected answer");
    return parsed.data.current;
  } catch (error) {
    if (error instanceof ProviderError) {
      throw new ApiError({
        code: "upstream_unavailable",
        message: `Weather is unavailable: ${error.message}`,
        details: { service: "weather", reason: error.kind },
      });
    }
    throw error;
  }
}

/**
 * Current weather at a point, cached for 10 minutes per rounded coordinate in the Cache API so
 * a dashboard full of users does not multiply calls to the weather service.
 */
export async function currentWeather(
  env: Env,
  lat: number,
  lng: number,
  fetcher?: (r: Request) => Promise<Response>,
): Promise<CurrentWeather> {
  const latitude = round(lat);
  const longitude = round(lng);
  const cacheKey = new Request(
    `https://weather-cache.sunfleet.internal/current?lat=${latitude}&lng=${longitude}`,
  );
  const cache = await caches.open("weather");
  const hit = await cache.match(cacheKey);
  if (hit) return (await hit.json()) as CurrentWeather;
  const current = await fetchCurrent(env, latitude, longitude, fetcher);
  const weather: CurrentWeather = {
    latitude,
    longitude,
    temperature: current.temperature_2m,
    cloudCover: current.cloud_cover,
    solarIrradiance: current.shortwave_radiation,
    windSpeed: current.wind_speed_10m,
    humidity: current.relative_humidity_2m,
    uvIndex: current.uv_index ?? 0,
    // Open-Meteo answers GMT times without a zone suffix.
    time: new Date(`${current.time}Z`).toISOString(),
    source: WEATHER_ATTRIBUTION,
  };
  await cache.put(
    cacheKey,
    new Response(JSON.stringify(weather), {
      headers: { "Content-Type": "application/json", "Cache-Control": `max-age=${CACHE_SECONDS}` },
    }),
  );
  return weather;
}
