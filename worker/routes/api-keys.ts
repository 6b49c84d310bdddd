import { Hono } from "hono";
import { z } from "zod";
import { apiKeySchema, createApiKeySchema, createdApiKeySchema } from "../../schema/api/api-keys";
import { idParamSchema } from "../../schema/api/common";
import { type AppEnv, userContext } from "../hono-env";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { createApiKey, listOrgApiKeys, revokeApiKey } from "../services/api-keys";

export const apiKeysRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/", responds("ApiKeys", z.array(apiKeySchema)), async (c) =>
    c.json(await listOrgApiKeys(userContext(c))),
  )
  .post(
    "/",
    responds("CreatedApiKey", createdApiKeySchema, { status: 201 }),
    validate("json", createApiKeySchema),
    async (c) => c.json(await createApiKey(userContext(c), c.req.valid("json")), 201),
  )
  .delete("/:id", validate("param", idParamSchema), async (c) => {
    await revokeApiKey(userContext(c), c.req.valid("param").id);
    return c.body(null, 204);
  });
