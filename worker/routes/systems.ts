import { Hono } from "hono";
import { idParamSchema } from "../../schema/api/common";
import { systemDetailSchema, updateSystemBodySchema } from "../../schema/api/systems";
import { weatherHistoryQuerySchema, weatherHistorySchema } from "../../schema/api/weather-history";
import { type AppEnv, userContext } from "../hono-env";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { updateSystem } from "../services/systems";
import { systemWeatherHistory } from "../services/weather-history";

/** `/api/systems`: one monitoring system, site or not. */
export const systemsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .patch(
    "/:id",
    responds("SystemDetail", systemDetailSchema),
    validate("param", idParamSchema),
    validate("json", updateSystemBodySchema),
    async (c) => c.json(await updateSystem(userContext(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .get(
    "/:id/weather-history",
    responds("WeatherHistory", weatherHistorySchema),
    validate("param", idParamSchema),
    validate("query", weatherHistoryQuerySchema),
    async (c) =>
      c.json(await systemWeatherHistory(userContext(c), c.req.valid("param").id, c.req.valid("query").date)),
  );
