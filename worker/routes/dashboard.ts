import { Hono } from "hono";
import { formatQuerySchema } from "../../schema/api/exports";
import { fleetSeriesQuerySchema } from "../../schema/api/fleet-series";
import type { DashboardMetric } from "../../schema/api/metrics";
import { type AppEnv, userContext } from "../hono-env";
import { csvHeaders } from "../lib/csv";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { dashboardFallback, dashboardMetricsJson } from "../services/dashboard";
import { metricsCsv } from "../services/exports";
import { fleetSeries } from "../services/fleet-series";

export const dashboardRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  // The snapshot holds the answer already serialised; a 2,000-system fleet is ~1.5 MB of JSON.
  .get("/metrics", validate("query", formatQuerySchema), async (c) => {
    const json = await dashboardMetricsJson(userContext(c));
    if (c.req.valid("query").format === "csv") {
      return c.body(
        metricsCsv(JSON.parse(json) as DashboardMetric[]),
        200,
        csvHeaders("system-performance.csv"),
      );
    }
    return c.body(json, 200, { "Content-Type": "application/json" });
  })
  .get("/series", validate("query", fleetSeriesQuerySchema), async (c) =>
    c.json(await fleetSeries(userContext(c), c.req.valid("query"))),
  );

/** SPEC's fallback path, organisation-scoped like every route. */
export const debugRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/dashboard-test", async (c) => c.json(await dashboardFallback(userContext(c))));
