import { Hono } from "hono";
import { createApiKeySchema } from "../../schema/api/api-keys";
import { idParamSchema } from "../../schema/api/common";
import { type AppEnv, userContext } from "../hono-env";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { createApiKey, listOrgApiKeys, revokeApiKey } from "../services/api-keys";

export const apiKeysRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/", async (c) => c.json(await listOrgApiKeys(userContext(c))))
  .post("/", validate("json", createApiKeySchema), async (c) =>
    c.json(await createApiKey(userContext(c), c.req.valid("json")), 201),
  )
  .delete("/:id", validate("param", idParamSchema), async (c) => {
    await revokeApiKey(userContext(c), c.req.valid("param").id);
    return c.body(null, 204);
  });
