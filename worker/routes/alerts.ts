import { Hono } from "hono";
import { z } from "zod";
import {
  alertAssignSchema,
  alertNoteSchema,
  alertPatchSchema,
  alertSchema,
  alertSummarySchema,
  alertsQuerySchema,
} from "../../schema/api/alerts";
import { idParamSchema } from "../../schema/api/common";
import { type AppEnv, userContext } from "../hono-env";
import { csvHeaders } from "../lib/csv";
import { pagedAnswer } from "../lib/paged-answer";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { acknowledgeAlert, assignAlert, getAlertSummary, getAlerts, updateAlert } from "../services/alerts";
import { alertsCsv } from "../services/exports";

export const alertsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get(
    "/",
    responds("Alerts", z.array(alertSchema), { csv: true, etag: true, paged: true }),
    validate("query", alertsQuerySchema),
    async (c) => {
      const query = c.req.valid("query");
      if (query.format === "csv")
        return c.body(alertsCsv(userContext(c), query), 200, csvHeaders("alerts.csv"));
      const page = await getAlerts(userContext(c), query);
      return pagedAnswer(c.req, page.items, page);
    },
  )
  .get("/summary", responds("AlertSummary", alertSummarySchema), async (c) =>
    c.json(await getAlertSummary(userContext(c))),
  )
  .patch(
    "/:id",
    responds("Alert", alertSchema),
    validate("param", idParamSchema),
    validate("json", alertPatchSchema),
    async (c) =>
      c.json(await updateAlert(userContext(c), c.req.valid("param").id, c.req.valid("json").resolved)),
  )
  .post(
    "/:id/acknowledge",
    responds("Alert", alertSchema),
    validate("param", idParamSchema),
    validate("json", alertNoteSchema),
    async (c) =>
      c.json(await acknowledgeAlert(userContext(c), c.req.valid("param").id, c.req.valid("json").note)),
  )
  .post(
    "/:id/assign",
    responds("Alert", alertSchema),
    validate("param", idParamSchema),
    validate("json", alertAssignSchema),
    async (c) =>
      c.json(await assignAlert(userContext(c), c.req.valid("param").id, c.req.valid("json").userId)),
  )
  .post(
    "/:id/resolve",
    responds("Alert", alertSchema),
    validate("param", idParamSchema),
    validate("json", alertNoteSchema),
    async (c) =>
      c.json(await updateAlert(userContext(c), c.req.valid("param").id, true, c.req.valid("json").note)),
  )
  .post(
    "/:id/reopen",
    responds("Alert", alertSchema),
    validate("param", idParamSchema),
    validate("json", alertNoteSchema),
    async (c) =>
      c.json(await updateAlert(userContext(c), c.req.valid("param").id, false, c.req.valid("json").note)),
  );
