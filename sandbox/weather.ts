import { Hono } from "hono";
import { clearSkyIrradiance, cloudFactor, hash } from "./simulation";

/**
 * An Open-Meteo-compatible forecast endpoint (`/v1/forecast`) for development and tests:
 * current conditions and hourly shortwave radiation from the same clear-sky model and cloud
 * dips the simulated plants use. Magic coordinates inject faults: latitude 89.99 answers 500,
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
    if ((c.req.query("hourly") ?? "").includes("shortwave_radiation")) {
      const startOfToday = Math.floor(at / 86_400_000) * 86_400_000;
      const start = startOfToday - pastDays * 86_400_000;
      const hours = Math.round((startOfToday + 86_400_000 - start) / 3_600_000);
      const times: string[] = [];
      const radiation: number[] = [];
      for (let h = 0; h < hours; h++) {
        const t = start + h * 3_600_000;
        times.push(new Date(t).toISOString().slice(0, 16));
        // Open-Meteo's hourly radiation is the mean of the preceding hour.
        radiation.push(
          Math.round(conditionsAt(latitude, longitude, t - 1_800_000).values.shortwave_radiation),
        );
      }
      body.hourly_units = { time: "iso8601", shortwave_radiation: "W/m²" };
      body.hourly = { time: times, shortwave_radiation: radiation };
    }
    return c.json(body);
  });
  return app;
}

function conditionsAt(latitude: number, longitude: number, at: number) {
  const place = `${latitude.toFixed(2)},${longitude.toFixed(2)}`;
  const clearSky = clearSkyIrradiance(latitude, longitude, at);
  const clouds = cloudFactor(place, at);
  const cloudCover = Math.round(
    Math.min(
      100,
      Math.max(0, (1 - clouds / 0.95) * 140 + (hash(`${place}:${Math.floor(at / 3_600_000)}`) % 15)),
    ),
  );
  const dayOfYear = Math.floor((at % 31_557_600_000) / 86_400_000);
  const seasonal = Math.cos(((dayOfYear - 200) / 365) * 2 * Math.PI) * (latitude >= 0 ? 1 : -1);
  const base = 24 - Math.abs(latitude) * 0.35 + seasonal * 9;
  const temperature = Math.round((base + (clearSky / 1000) * 6) * 10) / 10;
  return {
    time: at,
    values: {
      temperature_2m: temperature,
      relative_humidity_2m: Math.round(55 + (cloudCover / 100) * 30 - (clearSky / 1000) * 15),
      cloud_cover: cloudCover,
      wind_speed_10m:
        Math.round((6 + (hash(`${place}:wind:${Math.floor(at / 3_600_000)}`) % 180) / 10) * 10) / 10,
      shortwave_radiation: Math.round(clearSky * clouds),
      uv_index: Math.round((clearSky / 1000) * 9 * clouds * 10) / 10,
    },
  };
}
