import { Hono } from "hono";
import { auditQuerySchema } from "../../schema/api/audit";
import { type AppEnv, userContext } from "../hono-env";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { readAuditLog } from "../services/audit";

export const adminRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/logs", validate("query", auditQuerySchema), async (c) =>
    c.json(await readAuditLog(userContext(c), c.req.valid("query"))),
  );
