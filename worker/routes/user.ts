import { Hono } from "hono";
import { preferencesPatchSchema } from "../../schema/api/preferences";
import { type AppEnv, userContext } from "../hono-env";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { profileOf } from "../services/auth";
import { getPreferences, updatePreferences } from "../services/preferences";

export const userRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/profile", async (c) => c.json(await profileOf(userContext(c))))
  .get("/preferences", async (c) => c.json(await getPreferences(userContext(c))))
  .patch("/preferences", validate("json", preferencesPatchSchema), async (c) =>
    c.json(await updatePreferences(userContext(c), c.req.valid("json"))),
  );
