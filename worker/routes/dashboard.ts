import { Hono } from "hono";
import { z } from "zod";
import {
  dashboardSummarySchema,
  systemsPageQuerySchema,
  systemsPageSchema,
} from "../../schema/api/dashboard";
import { fleetSeriesQuerySchema, fleetSeriesSchema } from "../../schema/api/fleet-series";
import {
  type DashboardMetric,
  dashboardFallbackSchema,
  dashboardMetricSchema,
  metricsQuerySchema,
} from "../../schema/api/metrics";
import { type AppEnv, userContext } from "../hono-env";
import { csvHeaders } from "../lib/csv";
import { requestedTags, tagHeaders } from "../lib/entity-tags";
import { jsonAnswer, jsonText } from "../lib/gzip";
import { pageLinks } from "../lib/page-links";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import {
  dashboardFallback,
  dashboardMetricsJson,
  dashboardMetricsPage,
  dashboardSummary,
  dashboardSystemsPage,
} from "../services/dashboard";
import { metricsCsv } from "../services/exports";
import { fleetSeries } from "../services/fleet-series";

export const dashboardRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get(
    "/metrics",
    responds("DashboardMetrics", z.array(dashboardMetricSchema), { csv: true, etag: true, paged: true }),
    validate("query", metricsQuerySchema),
    async (c) => {
      const query = c.req.valid("query");
      if (query.format === "csv") {
        const json = await dashboardMetricsJson(userContext(c));
        return c.body(
          metricsCsv(JSON.parse(json) as DashboardMetric[]),
          200,
          csvHeaders("system-performance.csv"),
        );
      }
      // A page of 1,000 systems held gzipped (~750 KB of JSON, ~50 KB gzipped): sent as held to a
      // client that takes gzip, inflated on the way to one that does not; not sent at all to a
      // client that holds the current tag.
      const answer = await dashboardMetricsPage(
        userContext(c),
        query.page,
        requestedTags(c.req.header("If-None-Match")),
      );
      const headers = { ...tagHeaders(answer.tag), ...pageLinks(c.req.url, answer) };
      if (!answer.gzip) return c.body(null, 304, headers);
      return jsonAnswer<DashboardMetric[]>(c.req.header("Accept-Encoding"), { gzip: answer.gzip }, headers);
    },
  )
  .get("/summary", responds("DashboardSummary", dashboardSummarySchema), async (c) =>
    c.json(await dashboardSummary(userContext(c))),
  )
  .get(
    "/systems",
    responds("DashboardSystemsPage", systemsPageSchema),
    validate("query", systemsPageQuerySchema),
    async (c) => {
      const page = await dashboardSystemsPage(userContext(c), c.req.valid("query"));
      // A page of 50 entries is ~40 KB of repetitive JSON: gzipped for a client that takes it.
      return jsonAnswer(c.req.header("Accept-Encoding"), { json: jsonText(page) });
    },
  )
  .get(
    "/series",
    responds("FleetSeries", fleetSeriesSchema),
    validate("query", fleetSeriesQuerySchema),
    async (c) => c.json(await fleetSeries(userContext(c), c.req.valid("query"))),
  );

/** The client's fallback when the metrics call fails (docs/product.md), organisation-scoped like every route. */
export const debugRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/dashboard-test", responds("DashboardFallback", dashboardFallbackSchema), async (c) =>
    c.json(await dashboardFallback(userContext(c))),
  );
