import { Hono } from "hono";
import { alertPatchSchema, alertsQuerySchema } from "../../schema/api/alerts";
import { idParamSchema } from "../../schema/api/common";
import { type AppEnv, userContext } from "../hono-env";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { getAlertSummary, getAlerts, updateAlert } from "../services/alerts";

export const alertsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/", validate("query", alertsQuerySchema), async (c) =>
    c.json(await getAlerts(userContext(c), c.req.valid("query"))),
  )
  .get("/summary", async (c) => c.json(await getAlertSummary(userContext(c))))
  .patch("/:id", validate("param", idParamSchema), validate("json", alertPatchSchema), async (c) =>
    c.json(await updateAlert(userContext(c), c.req.valid("param").id, c.req.valid("json").resolved)),
  );
