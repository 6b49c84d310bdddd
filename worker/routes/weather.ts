import { Hono } from "hono";
import { currentWeatherSchema, weatherQuerySchema } from "../../schema/api/weather";
import { currentWeather } from "../engines/weather";
import type { AppEnv } from "../hono-env";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";

export const weatherRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get(
    "/current",
    responds("CurrentWeather", currentWeatherSchema),
    validate("query", weatherQuerySchema),
    async (c) => {
      const { lat, lng } = c.req.valid("query");
      return c.json(await currentWeather(c.env, lat, lng));
    },
  );
