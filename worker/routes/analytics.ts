import { Hono } from "hono";
import { analyticsQuerySchema } from "../../schema/api/analytics";
import { type AppEnv, userContext } from "../hono-env";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { analytics } from "../services/analytics";

export const analyticsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/", validate("query", analyticsQuerySchema), async (c) =>
    c.json(await analytics(userContext(c), c.req.valid("query"))),
  );
