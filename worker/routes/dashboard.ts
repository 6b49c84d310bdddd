import { Hono } from "hono";
import { type AppEnv, userContext } from "../hono-env";
import { requireAuth } from "../middleware/auth";
import { dashboardFallback, dashboardMetrics } from "../services/metrics";

export const dashboardRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/metrics", async (c) => c.json(await dashboardMetrics(userContext(c))));

/** SPEC's fallback path, organisation-scoped like every route. */
export const debugRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/dashboard-test", async (c) => c.json(await dashboardFallback(userContext(c))));
