import { Hono } from "hono";
import { idParamSchema } from "../../schema/api/common";
import {
  addPortfolioSitesBodySchema,
  createPortfolioBodySchema,
  portfolioSiteParamSchema,
  updatePortfolioBodySchema,
} from "../../schema/api/portfolios";
import { type AppEnv, userContext } from "../hono-env";
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
  .get("/", async (c) => c.json(await listPortfolios(userContext(c))))
  .post("/", validate("json", createPortfolioBodySchema), async (c) =>
    c.json(await createPortfolio(userContext(c), c.req.valid("json")), 201),
  )
  .patch("/:id", validate("param", idParamSchema), validate("json", updatePortfolioBodySchema), async (c) =>
    c.json(await updatePortfolio(userContext(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete("/:id", validate("param", idParamSchema), async (c) =>
    c.json(await deletePortfolio(userContext(c), c.req.valid("param").id)),
  )
  .get("/:id/sites", validate("param", idParamSchema), async (c) =>
    c.json(await listPortfolioSites(userContext(c), c.req.valid("param").id)),
  )
  .post(
    "/:id/sites",
    validate("param", idParamSchema),
    validate("json", addPortfolioSitesBodySchema),
    async (c) =>
      c.json(await addPortfolioSites(userContext(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete("/:id/sites/:siteId", validate("param", portfolioSiteParamSchema), async (c) => {
    const { id, siteId } = c.req.valid("param");
    return c.json(await removeSiteFromPortfolio(userContext(c), id, siteId));
  });
