import { z } from "zod";
import { listDueIrradianceLocations, recordIrradianceFetch, upsertIrradianceHours } from "../data/irradiance";
import type { Env } from "../env";
import { createDb, runBatch } from "../lib/db";
import { localBudget } from "../providers/budget";
import { ProviderHttp } from "../providers/http";
import { DEFAULT_WEATHER_API_URL } from "./weather";

/** Locations are refreshed at most hourly; a run handles this many, oldest first. */
const REFRESH_MS = 3_600_000;
const LOCATIONS_PER_RUN = 50;

const hourlySchema = z.object({
  hourly: z.object({ time: z.array(z.string()), shortwave_radiation: z.array(z.number().nullable()) }),
});

export const locationKey = (latitude: number, longitude: number) =>
  `${latitude.toFixed(2)},${longitude.toFixed(2)}`;

/**
 * Fetches hourly irradiance (the past 7 days and today) for the places of sites and of plants
 * without a site from the weather service, for expected energy and performance ratio. One call
 * per location per hour, shared by every site, plant and organisation at that rounded location.
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
  const base = (env.WEATHER_API_URL || DEFAULT_WEATHER_API_URL).replace(/\/+$/, "");
  const http = new ProviderHttp({
    fetch: fetcher,
    budget: localBudget({ perEndpoint: false, limits: [{ intervalMs: 100, burst: 1 }] }),
  });
  let refreshed = 0;
  for (const location of due) {
    const url = new URL(`${base}/v1/forecast`);
    url.searchParams.set("latitude", String(location.lat));
    url.searchParams.set("longitude", String(location.lng));
    url.searchParams.set("hourly", "shortwave_radiation");
    url.searchParams.set("past_days", "7");
    url.searchParams.set("forecast_days", "1");
    url.searchParams.set("timezone", "GMT");
    try {
      const parsed = hourlySchema.parse(await http.json({ url: url.toString() }, { authStatuses: [] }));
      const rows = parsed.hourly.time.flatMap((time, i) => {
        const ghi = parsed.hourly.shortwave_radiation[i];
        // Each value is the mean of the hour before its time stamp; keep only finished hours.
        const end = Date.parse(`${time}:00Z`);
        return ghi === null || ghi === undefined || end > now ? [] : [{ hourStart: end - 3_600_000, ghi }];
      });
      await runBatch(db, [
        upsertIrradianceHours(db, location.key, rows),
        recordIrradianceFetch(db, location, now),
      ]);
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
