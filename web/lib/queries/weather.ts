import { queryOptions } from "@tanstack/react-query";
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
      api.get("/weather/current", { query: { lat: latitude, lng: longitude }, signal }),
    staleTime: WEATHER_FRESH_MS,
    refetchInterval: WEATHER_FRESH_MS,
  });

/** Hourly power follows each sync and irradiance arrives hourly; five minutes is fresh enough. */
const HISTORY_FRESH_MS = 5 * 60_000;

/** What a day of weather history is read for: a site (all its systems), or one plant without a site. */
export interface WeatherPlaceRef {
  kind: "site" | "system";
  id: string;
}

/**
 * A site's or a plant's day of generation against irradiance. Keyed under ['sites'] so that
 * writes which invalidate it (capacity, attached systems, a sync) refresh it too.
 */
export const weatherHistoryQueryOptions = (place: WeatherPlaceRef, date: string) =>
  queryOptions({
    queryKey: [...siteKeys.all, place.kind, place.id, "weather-history", date] as const,
    queryFn: ({ signal }) =>
      api.get(place.kind === "site" ? "/sites/:id/weather-history" : "/systems/:id/weather-history", {
        param: { id: place.id },
        query: { date },
        signal,
      }),
    staleTime: HISTORY_FRESH_MS,
    refetchInterval: HISTORY_FRESH_MS,
  });
