import { Hono } from "hono";
import { z } from "zod";
import {
  type AnalyticsRecord,
  analyticsQuerySchema,
  analyticsRecordSchema,
} from "../../schema/api/analytics";
import { type AppEnv, userContext } from "../hono-env";
import { csvHeaders } from "../lib/csv";
import { invalidInput } from "../lib/errors";
import type { JsonText } from "../lib/gzip";
import { pagedAnswer } from "../lib/paged-answer";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { analyticsPage, systemAnalytics } from "../services/analytics";
import { analyticsSeriesCsv } from "../services/exports";

const ONE_PAGE = { page: 1, pageCount: 1, total: 1 };

export const analyticsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get(
    "/",
    responds("AnalyticsRecords", z.array(analyticsRecordSchema), { csv: true, etag: true, paged: true }),
    validate("query", analyticsQuerySchema),
    async (c) => {
      const query = c.req.valid("query");
      if (query.format === "csv" && query.system === "all") {
        throw invalidInput("Invalid input", [
          { path: ["system"], message: "A CSV export holds one system's series: give system={id}" },
        ]);
      }
      if (query.system === "all") {
        // A page at a time (1,000 records unless `pageSize` says otherwise).
        const page = await analyticsPage(userContext(c), query);
        return pagedAnswer(c.req, page.items, page);
      }
      const record = await systemAnalytics(userContext(c), query);
      if (query.format === "csv") {
        const parsed = JSON.parse(record) as AnalyticsRecord;
        return c.body(
          analyticsSeriesCsv(parsed, query.series),
          200,
          csvHeaders(`analytics-${parsed.systemId}-${query.range}-${query.series}.csv`),
        );
      }
      // The store's JSON text as it is, as a list of one.
      return pagedAnswer(c.req, `[${record}]` as JsonText<AnalyticsRecord[]>, ONE_PAGE);
    },
  );
