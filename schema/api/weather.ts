import { z } from "zod";

/** A query value: an empty one is missing, never 0. */
const coordinate = (min: number, max: number, name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, { error: `${name} is required` })
    .pipe(
      z.coerce
        .number<string>({ error: `${name} must be a number` })
        .min(min, { error: `${name} must be between ${min} and ${max}` })
        .max(max, { error: `${name} must be between ${min} and ${max}` }),
    );

export const weatherQuerySchema = z.strictObject({
  lat: coordinate(-90, 90, "Latitude"),
  lng: coordinate(-180, 180, "Longitude"),
});

/** The data source named as its licence (CC BY 4.0) requires. */
export const WEATHER_ATTRIBUTION = "Weather data by Open-Meteo.com (CC BY 4.0)";

export const currentWeatherSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  /** °C */
  temperature: z.number(),
  /** % */
  cloudCover: z.number(),
  /** Global horizontal (shortwave) irradiance, W/m². */
  solarIrradiance: z.number(),
  /** km/h */
  windSpeed: z.number(),
  /** % */
  humidity: z.number(),
  uvIndex: z.number(),
  /** When the values were observed (ISO, UTC). */
  time: z.string(),
  source: z.string(),
});
export type CurrentWeather = z.infer<typeof currentWeatherSchema>;
