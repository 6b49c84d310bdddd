import { Hono } from "hono";
import { orgSettingsSchema, updateOrgSettingsBodySchema } from "../../schema/api/organization";
import { organizationTariffsSchema, putTariffBodySchema } from "../../schema/api/tariffs";
import { type AppEnv, userContext } from "../hono-env";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { getOrgSettings, updateOrgSettings } from "../services/plant-sites";
import { getOrganizationTariffs, putOrganizationTariff } from "../services/tariffs";

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
  )
  .get("/tariffs", responds("OrganizationTariffs", organizationTariffsSchema), async (c) =>
    c.json(await getOrganizationTariffs(userContext(c))),
  )
  .put(
    "/tariff",
    responds("OrganizationTariffs", organizationTariffsSchema),
    validate("json", putTariffBodySchema),
    async (c) => c.json(await putOrganizationTariff(userContext(c), c.req.valid("json"))),
  );
