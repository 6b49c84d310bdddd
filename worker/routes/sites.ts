import { Hono } from "hono";
import { z } from "zod";
import { idParamSchema } from "../../schema/api/common";
import {
  availableSystemsQuerySchema,
  enhancedSiteListItemSchema,
  siteCountsAnswerSchema,
  siteFilterSchema,
  siteGroupSchema,
  siteGroupsQuerySchema,
  siteListItemSchema,
  siteListQuerySchema,
  siteMapSchema,
} from "../../schema/api/site-lists";
import {
  attachSystemBodySchema,
  availableSystemSchema,
  createSiteBodySchema,
  enhancedSiteSchema,
  mergeSitesBodySchema,
  siteDeletedSchema,
  siteSystemParamSchema,
  sitesFromSystemsBodySchema,
  sitesFromSystemsSchema,
  splitSiteBodySchema,
  splitSiteSchema,
  systemAttachedSchema,
  systemDetachedSchema,
  updateSiteBodySchema,
} from "../../schema/api/sites";
import { putTariffBodySchema, siteTariffsSchema } from "../../schema/api/tariffs";
import { weatherHistoryQuerySchema, weatherHistorySchema } from "../../schema/api/weather-history";
import { type AppEnv, userContext } from "../hono-env";
import { jsonAnswer } from "../lib/gzip";
import { pagedAnswer } from "../lib/paged-answer";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { createSitesFromSystems, mergeSites, splitSite } from "../services/plant-sites";
import {
  countSites,
  groupSites,
  listAvailableSystemsPage,
  listEnhancedSitesPage,
  listSitesPage,
  mapSites,
} from "../services/site-lists";
import { attachSystem, createSite, deleteSite, detachSystem, getSite, updateSite } from "../services/sites";
import { clearSiteTariffs, getSiteTariffs, putSiteTariff } from "../services/tariffs";
import { siteWeatherHistory } from "../services/weather-history";

/** `/api/sites`: the site calls. `/enhanced`, `/counts`, `/groups` and `/map` are registered before `/:id`. */
export const sitesRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  // A page of 1,000 sites in name order unless the query asks otherwise (Link and X-Total-Count name the rest).
  .get(
    "/",
    responds("SiteListPage", z.array(siteListItemSchema), { etag: true, paged: true }),
    validate("query", siteListQuerySchema),
    async (c) => {
      const page = await listSitesPage(userContext(c), c.req.valid("query"));
      return pagedAnswer(c.req, page.items, page);
    },
  )
  .get(
    "/enhanced",
    responds("EnhancedSiteListPage", z.array(enhancedSiteListItemSchema), { etag: true, paged: true }),
    validate("query", siteListQuerySchema),
    async (c) => {
      const page = await listEnhancedSitesPage(userContext(c), c.req.valid("query"));
      return pagedAnswer(c.req, page.items, page);
    },
  )
  .get(
    "/counts",
    responds("SiteCounts", siteCountsAnswerSchema),
    validate("query", siteFilterSchema),
    async (c) => c.json(await countSites(userContext(c), c.req.valid("query"))),
  )
  .get(
    "/groups",
    responds("SiteGroups", z.array(siteGroupSchema)),
    validate("query", siteGroupsQuerySchema),
    async (c) => c.json(await groupSites(userContext(c), c.req.valid("query"))),
  )
  .get("/map", responds("SiteMap", siteMapSchema), validate("query", siteFilterSchema), async (c) =>
    // ~30 bytes a site as JSON, held gzipped by the store: sent as held, inflated for a client
    // that does not take gzip.
    jsonAnswer(c.req.header("Accept-Encoding"), {
      gzip: await mapSites(userContext(c), c.req.valid("query")),
    }),
  )
  .post(
    "/",
    responds("EnhancedSite", enhancedSiteSchema, { status: 201 }),
    validate("json", createSiteBodySchema),
    async (c) => c.json(await createSite(userContext(c), c.req.valid("json")), 201),
  )
  .post(
    "/from-systems",
    responds("SitesFromSystems", sitesFromSystemsSchema, { status: 201 }),
    validate("json", sitesFromSystemsBodySchema),
    async (c) => {
      const result = await createSitesFromSystems(userContext(c), c.req.valid("json"));
      return c.json(result, result.created > 0 ? 201 : 200);
    },
  )
  .post(
    "/:id/merge",
    responds("EnhancedSite", enhancedSiteSchema),
    validate("param", idParamSchema),
    validate("json", mergeSitesBodySchema),
    async (c) => c.json(await mergeSites(userContext(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .post(
    "/:id/split",
    responds("SplitSite", splitSiteSchema, { status: 201 }),
    validate("param", idParamSchema),
    validate("json", splitSiteBodySchema),
    async (c) => c.json(await splitSite(userContext(c), c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .get("/:id", responds("EnhancedSite", enhancedSiteSchema), validate("param", idParamSchema), async (c) =>
    c.json(await getSite(userContext(c), c.req.valid("param").id)),
  )
  .patch(
    "/:id",
    responds("EnhancedSite", enhancedSiteSchema),
    validate("param", idParamSchema),
    validate("json", updateSiteBodySchema),
    async (c) => c.json(await updateSite(userContext(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete("/:id", responds("SiteDeleted", siteDeletedSchema), validate("param", idParamSchema), async (c) =>
    c.json(await deleteSite(userContext(c), c.req.valid("param").id)),
  )
  .get(
    "/:id/weather-history",
    responds("WeatherHistory", weatherHistorySchema),
    validate("param", idParamSchema),
    validate("query", weatherHistoryQuerySchema),
    async (c) =>
      c.json(await siteWeatherHistory(userContext(c), c.req.valid("param").id, c.req.valid("query").date)),
  )
  .get(
    "/:id/tariffs",
    responds("SiteTariffs", siteTariffsSchema),
    validate("param", idParamSchema),
    async (c) => c.json(await getSiteTariffs(userContext(c), c.req.valid("param").id)),
  )
  .put(
    "/:id/tariff",
    responds("SiteTariffs", siteTariffsSchema),
    validate("param", idParamSchema),
    validate("json", putTariffBodySchema),
    async (c) => c.json(await putSiteTariff(userContext(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete(
    "/:id/tariff",
    responds("SiteTariffs", siteTariffsSchema),
    validate("param", idParamSchema),
    async (c) => c.json(await clearSiteTariffs(userContext(c), c.req.valid("param").id)),
  )
  .post(
    "/:id/systems",
    responds("SystemAttached", systemAttachedSchema, { status: 201 }),
    validate("param", idParamSchema),
    validate("json", attachSystemBodySchema),
    async (c) => {
      const result = await attachSystem(userContext(c), c.req.valid("param").id, c.req.valid("json"));
      return c.json(result, result.attached ? 201 : 200);
    },
  )
  .delete(
    "/:id/systems/:systemId",
    responds("SystemDetached", systemDetachedSchema),
    validate("param", siteSystemParamSchema),
    async (c) => {
      const { id, systemId } = c.req.valid("param");
      return c.json(await detachSystem(userContext(c), id, systemId));
    },
  );

/** `/api/available-systems`: the organisation's synced systems not attached to a site. */
export const availableSystemsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get(
    "/",
    responds("AvailableSystems", z.array(availableSystemSchema), { etag: true, paged: true }),
    validate("query", availableSystemsQuerySchema),
    async (c) => {
      const page = await listAvailableSystemsPage(userContext(c), c.req.valid("query"));
      return pagedAnswer(c.req, page.items, page);
    },
  );
