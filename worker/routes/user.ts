import { Hono } from "hono";
import { profileSchema } from "../../schema/api/auth";
import { preferencesPatchSchema, preferencesSchema } from "../../schema/api/preferences";
import { type AppEnv, userContext } from "../hono-env";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { profileOf } from "../services/auth";
import { getPreferences, updatePreferences } from "../services/preferences";

export const userRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/profile", responds("Profile", profileSchema), async (c) => c.json(await profileOf(userContext(c))))
  .get("/preferences", responds("Preferences", preferencesSchema), async (c) =>
    c.json(await getPreferences(userContext(c))),
  )
  .patch(
    "/preferences",
    responds("Preferences", preferencesSchema),
    validate("json", preferencesPatchSchema),
    async (c) => c.json(await updatePreferences(userContext(c), c.req.valid("json"))),
  );
