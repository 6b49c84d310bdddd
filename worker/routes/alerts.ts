import { Hono } from "hono";
import {
  alertAssignSchema,
  alertNoteSchema,
  alertPatchSchema,
  alertsQuerySchema,
} from "../../schema/api/alerts";
import { idParamSchema } from "../../schema/api/common";
import { type AppEnv, userContext } from "../hono-env";
import { csvHeaders } from "../lib/csv";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { acknowledgeAlert, assignAlert, getAlertSummary, getAlerts, updateAlert } from "../services/alerts";
import { alertsCsv } from "../services/exports";

export const alertsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/", validate("query", alertsQuerySchema), async (c) => {
    const query = c.req.valid("query");
    const alerts = await getAlerts(userContext(c), query);
    if (query.format === "csv") return c.body(alertsCsv(alerts), 200, csvHeaders("alerts.csv"));
    return c.json(alerts);
  })
  .get("/summary", async (c) => c.json(await getAlertSummary(userContext(c))))
  .patch("/:id", validate("param", idParamSchema), validate("json", alertPatchSchema), async (c) =>
    c.json(await updateAlert(userContext(c), c.req.valid("param").id, c.req.valid("json").resolved)),
  )
  .post("/:id/acknowledge", validate("param", idParamSchema), validate("json", alertNoteSchema), async (c) =>
    c.json(await acknowledgeAlert(userContext(c), c.req.valid("param").id, c.req.valid("json").note)),
  )
  .post("/:id/assign", validate("param", idParamSchema), validate("json", alertAssignSchema), async (c) =>
    c.json(await assignAlert(userContext(c), c.req.valid("param").id, c.req.valid("json").userId)),
  )
  .post("/:id/resolve", validate("param", idParamSchema), validate("json", alertNoteSchema), async (c) =>
    c.json(await updateAlert(userContext(c), c.req.valid("param").id, true, c.req.valid("json").note)),
  )
  .post("/:id/reopen", validate("param", idParamSchema), validate("json", alertNoteSchema), async (c) =>
    c.json(await updateAlert(userContext(c), c.req.valid("param").id, false, c.req.valid("json").note)),
  );
