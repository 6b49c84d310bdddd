import { Hono } from "hono";
import { updateOrgSettingsBodySchema } from "../../schema/api/organization";
import { type AppEnv, userContext } from "../hono-env";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { getOrgSettings, updateOrgSettings } from "../services/plant-sites";

/** `/api/organization`: the caller's organisation's settings. */
export const organizationRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/settings", async (c) => c.json(await getOrgSettings(userContext(c))))
  .patch("/settings", validate("json", updateOrgSettingsBodySchema), async (c) =>
    c.json(await updateOrgSettings(userContext(c), c.req.valid("json"))),
  );
