import { Hono } from "hono";
import { fleetSeriesQuerySchema } from "../../schema/api/fleet-series";
import { type AppEnv, userContext } from "../hono-env";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { dashboardFallback, dashboardMetricsJson } from "../services/dashboard";
import { fleetSeries } from "../services/fleet-series";

export const dashboardRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  // The snapshot holds the answer already serialised; a 2,000-system fleet is ~1.5 MB of JSON.
  .get("/metrics", async (c) =>
    c.body(await dashboardMetricsJson(userContext(c)), 200, { "Content-Type": "application/json" }),
  )
  .get("/series", validate("query", fleetSeriesQuerySchema), async (c) =>
    c.json(await fleetSeries(userContext(c), c.req.valid("query"))),
  );

/** SPEC's fallback path, organisation-scoped like every route. */
export const debugRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/dashboard-test", async (c) => c.json(await dashboardFallback(userContext(c))));
