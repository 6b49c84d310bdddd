import { Hono } from "hono";
import { auditPageSchema, auditQuerySchema } from "../../schema/api/audit";
import { fleetStoreSizesSchema } from "../../schema/api/fleet-stores";
import { type AppEnv, userContext } from "../hono-env";
import { csvHeaders } from "../lib/csv";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { readAuditLog } from "../services/audit";
import { auditCsv } from "../services/exports";
import { listFleetStoreSizes } from "../services/fleet-stores";

export const adminRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get(
    "/logs",
    responds("AuditPage", auditPageSchema, { csv: true }),
    validate("query", auditQuerySchema),
    async (c) => {
      const query = c.req.valid("query");
      if (query.format === "csv")
        return c.body(auditCsv(userContext(c), query), 200, csvHeaders("audit-log.csv"));
      return c.json(await readAuditLog(userContext(c), query));
    },
  )
  .get("/fleet-stores", responds("FleetStoreSizes", fleetStoreSizesSchema), async (c) =>
    c.json(await listFleetStoreSizes(userContext(c))),
  );
