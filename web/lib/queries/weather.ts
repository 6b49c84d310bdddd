import { queryOptions } from "@tanstack/react-query";
import type { CurrentWeather } from "../../../schema/api/weather";
import type { WeatherHistory } from "../../../schema/api/weather-history";
import { api } from "../api";
import { siteKeys } from "./sites";

/** The server caches per rounded coordinate for 10 minutes; asking more often gains nothing. */
const WEATHER_FRESH_MS = 10 * 60_000;

export const weatherKeys = {
  all: ["weather"] as const,
  current: (latitude: number, longitude: number) =>
    [...weatherKeys.all, "current", latitude, longitude] as const,
};

export const currentWeatherQueryOptions = (latitude: number, longitude: number) =>
  queryOptions({
    queryKey: weatherKeys.current(latitude, longitude),
    queryFn: ({ signal }) =>
      api.get<CurrentWeather>(
        `/weather/current?lat=${encodeURIComponent(latitude)}&lng=${encodeURIComponent(longitude)}`,
        { signal },
      ),
    staleTime: WEATHER_FRESH_MS,
    refetchInterval: WEATHER_FRESH_MS,
  });

/** Hourly power follows each sync and irradiance arrives hourly; five minutes is fresh enough. */
const HISTORY_FRESH_MS = 5 * 60_000;

/**
 * A site's day of generation against irradiance. Keyed under the site so that writes which
 * invalidate ['sites'] (capacity, attached systems, a sync) refresh it too.
 */
export const weatherHistoryQueryOptions = (siteId: string, date: string) =>
  queryOptions({
    queryKey: [...siteKeys.detail(siteId), "weather-history", date] as const,
    queryFn: ({ signal }) =>
      api.get<WeatherHistory>(
        `/sites/${encodeURIComponent(siteId)}/weather-history?date=${encodeURIComponent(date)}`,
        { signal },
      ),
    staleTime: HISTORY_FRESH_MS,
    refetchInterval: HISTORY_FRESH_MS,
  });
