import { Hono } from "hono";
import { z } from "zod";
import { idParamSchema, messageResponseSchema } from "../../schema/api/common";
import {
  addPortfolioSitesBodySchema,
  createPortfolioBodySchema,
  portfolioSchema,
  portfolioSiteParamSchema,
  portfolioSiteRemovedSchema,
  portfolioSitesAddedSchema,
  updatePortfolioBodySchema,
} from "../../schema/api/portfolios";
import { siteSchema } from "../../schema/api/sites";
import { type AppEnv, userContext } from "../hono-env";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import {
  addPortfolioSites,
  createPortfolio,
  deletePortfolio,
  listPortfolioSites,
  listPortfolios,
  removeSiteFromPortfolio,
  updatePortfolio,
} from "../services/portfolios";

export const portfoliosRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/", responds("Portfolios", z.array(portfolioSchema)), async (c) =>
    c.json(await listPortfolios(userContext(c))),
  )
  .post(
    "/",
    responds("Portfolio", portfolioSchema, { status: 201 }),
    validate("json", createPortfolioBodySchema),
    async (c) => c.json(await createPortfolio(userContext(c), c.req.valid("json")), 201),
  )
  .patch(
    "/:id",
    responds("Portfolio", portfolioSchema),
    validate("param", idParamSchema),
    validate("json", updatePortfolioBodySchema),
    async (c) => c.json(await updatePortfolio(userContext(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete("/:id", responds("Message", messageResponseSchema), validate("param", idParamSchema), async (c) =>
    c.json(await deletePortfolio(userContext(c), c.req.valid("param").id)),
  )
  .get("/:id/sites", responds("Sites", z.array(siteSchema)), validate("param", idParamSchema), async (c) =>
    c.json(await listPortfolioSites(userContext(c), c.req.valid("param").id)),
  )
  .post(
    "/:id/sites",
    responds("PortfolioSitesAdded", portfolioSitesAddedSchema),
    validate("param", idParamSchema),
    validate("json", addPortfolioSitesBodySchema),
    async (c) =>
      c.json(await addPortfolioSites(userContext(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete(
    "/:id/sites/:siteId",
    responds("PortfolioSiteRemoved", portfolioSiteRemovedSchema),
    validate("param", portfolioSiteParamSchema),
    async (c) => {
      const { id, siteId } = c.req.valid("param");
      return c.json(await removeSiteFromPortfolio(userContext(c), id, siteId));
    },
  );
