import { Hono } from "hono";
import {
  geocodeBodySchema,
  geocodeQuerySchema,
  geocodeResultSchema,
  geocodeSearchSchema,
} from "../../schema/api/geocode";
import { type AppEnv, userContext } from "../hono-env";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { geocodeAddress, searchAddresses } from "../services/geocode";

/** `/api/geocode`: address verification (POST) and autocomplete (GET). */
export const geocodeRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .post("/", responds("GeocodeResult", geocodeResultSchema), validate("json", geocodeBodySchema), async (c) =>
    c.json(await geocodeAddress(userContext(c), c.req.valid("json"))),
  )
  .get(
    "/",
    responds("GeocodeSearch", geocodeSearchSchema),
    validate("query", geocodeQuerySchema),
    async (c) => c.json(await searchAddresses(userContext(c), c.req.valid("query"))),
  );
