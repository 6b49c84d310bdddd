import { Hono } from "hono";
import { idParamSchema } from "../../schema/api/common";
import { weatherHistoryQuerySchema, weatherHistorySchema } from "../../schema/api/weather-history";
import { type AppEnv, userContext } from "../hono-env";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { systemWeatherHistory } from "../services/weather-history";

/** `/api/systems`: one monitoring system, site or not. */
export const systemsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get(
    "/:id/weather-history",
    responds("WeatherHistory", weatherHistorySchema),
    validate("param", idParamSchema),
    validate("query", weatherHistoryQuerySchema),
    async (c) =>
      c.json(await systemWeatherHistory(userContext(c), c.req.valid("param").id, c.req.valid("query").date)),
  );
