import { Hono } from "hono";
import { z } from "zod";
import { analyticsQuerySchema, analyticsRecordSchema } from "../../schema/api/analytics";
import { type AppEnv, userContext } from "../hono-env";
import { csvHeaders } from "../lib/csv";
import { invalidInput } from "../lib/errors";
import { pagedAnswer } from "../lib/paged-answer";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { analytics } from "../services/analytics";
import { analyticsSeriesCsv } from "../services/exports";

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
      const answer = await analytics(userContext(c), query);
      const record = answer.items[0];
      if (query.format === "csv" && record) {
        return c.body(
          analyticsSeriesCsv(record, query.series),
          200,
          csvHeaders(`analytics-${record.systemId}-${query.range}-${query.series}.csv`),
        );
      }
      // `system=all` a page at a time (1,000 records unless `pageSize` says otherwise).
      return pagedAnswer(c.req, answer.items, answer);
    },
  );
