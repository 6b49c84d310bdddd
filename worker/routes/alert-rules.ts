import { Hono } from "hono";
import { alertRulesPatchSchema } from "../../schema/api/alert-rules";
import { type AppEnv, userContext } from "../hono-env";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { getAlertRules, updateAlertRules } from "../services/alert-rules";

export const alertRulesRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/", async (c) => c.json(await getAlertRules(userContext(c))))
  .patch("/", validate("json", alertRulesPatchSchema), async (c) =>
    c.json(await updateAlertRules(userContext(c), c.req.valid("json"))),
  );
