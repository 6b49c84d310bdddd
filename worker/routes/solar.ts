import { Hono } from "hono";
import { estimateYieldBodySchema, yieldEstimateSchema } from "../../schema/api/solar";
import { type AppEnv, userContext } from "../hono-env";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { estimateSiteYield } from "../services/solar-estimate";

export const solarRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .post(
    "/estimate-yield",
    responds("YieldEstimate", yieldEstimateSchema),
    validate("json", estimateYieldBodySchema),
    (c) => c.json(estimateSiteYield(userContext(c), c.req.valid("json"))),
  );
