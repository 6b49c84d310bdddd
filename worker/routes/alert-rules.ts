import { Hono } from "hono";
import { alertRulesPatchSchema, alertRulesSchema } from "../../schema/api/alert-rules";
import { type AppEnv, userContext } from "../hono-env";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { getAlertRules, updateAlertRules } from "../services/alert-rules";

export const alertRulesRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/", responds("AlertRules", alertRulesSchema), async (c) =>
    c.json(await getAlertRules(userContext(c))),
  )
  .patch("/", responds("AlertRules", alertRulesSchema), validate("json", alertRulesPatchSchema), async (c) =>
    c.json(await updateAlertRules(userContext(c), c.req.valid("json"))),
  );
