import { Hono } from "hono";
import { orgSettingsSchema, updateOrgSettingsBodySchema } from "../../schema/api/organization";
import { type AppEnv, userContext } from "../hono-env";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { getOrgSettings, updateOrgSettings } from "../services/plant-sites";

/** `/api/organization`: the caller's organisation's settings. */
export const organizationRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/settings", responds("OrgSettings", orgSettingsSchema), async (c) =>
    c.json(await getOrgSettings(userContext(c))),
  )
  .patch(
    "/settings",
    responds("OrgSettings", orgSettingsSchema),
    validate("json", updateOrgSettingsBodySchema),
    async (c) => c.json(await updateOrgSettings(userContext(c), c.req.valid("json"))),
  );
