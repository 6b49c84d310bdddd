import { queryOptions } from "@tanstack/react-query";
import type { CurrentWeather } from "../../../schema/api/weather";
import { api } from "../api";

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
