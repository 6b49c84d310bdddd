import { Hono } from "hono";
import { auditQuerySchema } from "../../schema/api/audit";
import { type AppEnv, userContext } from "../hono-env";
import { csvHeaders } from "../lib/csv";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { readAuditLog } from "../services/audit";
import { auditCsv } from "../services/exports";

export const adminRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/logs", validate("query", auditQuerySchema), async (c) => {
    const query = c.req.valid("query");
    const page = await readAuditLog(userContext(c), query);
    if (query.format === "csv") return c.body(auditCsv(page), 200, csvHeaders(`audit-log-${page.page}.csv`));
    return c.json(page);
  });
