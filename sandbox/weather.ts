import { Hono } from "hono";
import { hash } from "./hash";
import {
  airTemperatureC,
  clearSkyIndex,
  clearSkyIrradiance,
  hourMeans,
  placeKey,
  planeIrradianceWm2,
  skyAt,
  windKmh,
} from "./sky";

/**
 * An Open-Meteo-compatible forecast endpoint (`/v1/forecast`) for development and tests:
 * current conditions and hourly radiation (global, direct and diffuse on the horizontal, direct
 * normal, and on a tilted plane with `tilt` and `azimuth`), temperature, wind and precipitation
 * over `past_days` and `forecast_days`, from the sandbox's sky (sandbox/sky.ts), which the losses
 * account's plants receive too. Magic coordinates inject faults: latitude 89.99 answers 500,
 * latitude -89.99 answers 429.
 */
export function weatherSandbox(options: { now: () => number }) {
  const app = new Hono();
  const calls = new Map<string, number>();

  app.get("/__calls", (c) => c.json(Object.fromEntries(calls)));

  app.get("/v1/forecast", (c) => {
    const latitude = Number(c.req.query("latitude"));
    const longitude = Number(c.req.query("longitude"));
    if (
      !Number.isFinite(latitude) ||
      !Number.isFinite(longitude) ||
      Math.abs(latitude) > 90 ||
      Math.abs(longitude) > 180
    ) {
      return c.json({ error: true, reason: "Invalid latitude or longitude" }, 400);
    }
    const key = `${latitude},${longitude}`;
    calls.set(key, (calls.get(key) ?? 0) + 1);
    if (latitude === 89.99) return c.json({ error: true, reason: "Internal error" }, 500);
    if (latitude === -89.99) return c.json({ error: true, reason: "Too many requests" }, 429);
    const at = options.now();
    const current = conditionsAt(latitude, longitude, Math.floor(at / 900_000) * 900_000);
    const body: Record<string, unknown> = {
      latitude,
      longitude,
      timezone: "GMT",
      utc_offset_seconds: 0,
      current_units: {
        time: "iso8601",
        temperature_2m: "°C",
        relative_humidity_2m: "%",
        cloud_cover: "%",
        wind_speed_10m: "km/h",
        shortwave_radiation: "W/m²",
        uv_index: "",
      },
      current: { time: new Date(current.time).toISOString().slice(0, 16), interval: 900, ...current.values },
    };
    const pastDays = Math.min(92, Number(c.req.query("past_days") ?? 0) || 0);
    const forecastDays = Math.min(16, Math.max(0, Number(c.req.query("forecast_days") ?? 1) || 0));
    const asked = (c.req.query("hourly") ?? "").split(",").filter((name) => name in HOURLY_UNITS);
    if (asked.length > 0) {
      const tilt = Number(c.req.query("tilt") ?? 0);
      // Open-Meteo's panel azimuth: 0 south, -90 east, 90 west.
      const azimuth = Number(c.req.query("azimuth") ?? 0);
      const windInMs = c.req.query("wind_speed_unit") === "ms";
      const startOfToday = Math.floor(at / 86_400_000) * 86_400_000;
      const start = startOfToday - pastDays * 86_400_000;
      const hours = Math.round((startOfToday + forecastDays * 86_400_000 - start) / 3_600_000);
      const series: Record<string, (number | string)[]> = { time: [] };
      for (const name of asked) series[name] = [];
      for (let h = 0; h < hours; h++) {
        const t = start + h * 3_600_000;
        series.time?.push(new Date(t).toISOString().slice(0, 16));
        // Radiation and rain are the hour before the time stamp; temperature and wind are at it.
        const means = hourMeans(latitude, longitude, t);
        const instant = conditionsAt(latitude, longitude, t).values;
        const values: Record<string, number> = {
          shortwave_radiation: Math.round(means.ghiWm2),
          direct_radiation: Math.round(means.directWm2),
          diffuse_radiation: Math.round(means.diffuseWm2),
          direct_normal_irradiance: Math.round(means.directNormalWm2),
          global_tilted_irradiance: Math.round(tiltedMean(latitude, longitude, t, tilt, 180 + azimuth)),
          temperature_2m: instant.temperature_2m,
          wind_speed_10m: windInMs
            ? Math.round((instant.wind_speed_10m / 3.6) * 10) / 10
            : instant.wind_speed_10m,
          precipitation: means.precipitationMm,
        };
        for (const name of asked) series[name]?.push(values[name] ?? 0);
      }
      body.hourly_units = Object.fromEntries([
        ["time", "iso8601"],
        ...asked.map((name) => [
          name,
          name === "wind_speed_10m" && windInMs ? "m/s" : HOURLY_UNITS[name as keyof typeof HOURLY_UNITS],
        ]),
      ]);
      body.hourly = series;
    }
    return c.json(body);
  });
  return app;
}

const HOURLY_UNITS = {
  shortwave_radiation: "W/m²",
  direct_radiation: "W/m²",
  diffuse_radiation: "W/m²",
  direct_normal_irradiance: "W/m²",
  global_tilted_irradiance: "W/m²",
  temperature_2m: "°C",
  wind_speed_10m: "km/h",
  precipitation: "mm",
} as const;

/** Mean light on a tilted plane over the hour before `end` (azimuth clockwise from north). */
function tiltedMean(latitude: number, longitude: number, end: number, tiltDeg: number, azimuthDeg: number) {
  let sum = 0;
  for (let i = 0; i < 12; i++) {
    sum += planeIrradianceWm2(skyAt(latitude, longitude, end - 3_600_000 + i * 300_000), tiltDeg, azimuthDeg);
  }
  return sum / 12;
}

function conditionsAt(latitude: number, longitude: number, at: number) {
  const place = placeKey(latitude, longitude);
  const clearSky = clearSkyIrradiance(latitude, longitude, at);
  const clouds = clearSkyIndex(place, at);
  const cloudCover = Math.round(
    Math.min(
      100,
      Math.max(0, (1 - clouds / 0.95) * 140 + (hash(`${place}:${Math.floor(at / 3_600_000)}`) % 15)),
    ),
  );
  const temperature = airTemperatureC(latitude, clearSky, at);
  return {
    time: at,
    values: {
      temperature_2m: temperature,
      relative_humidity_2m: Math.round(55 + (cloudCover / 100) * 30 - (clearSky / 1000) * 15),
      cloud_cover: cloudCover,
      wind_speed_10m: windKmh(place, at),
      shortwave_radiation: Math.round(clearSky * clouds),
      uv_index: Math.round((clearSky / 1000) * 9 * clouds * 10) / 10,
    },
  };
}
