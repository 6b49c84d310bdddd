import { z } from "zod";

const portfolioName = z
  .string()
  .trim()
  .min(1, "Name is required")
  .max(100, "Name must be at most 100 characters");
/** Optional, trimmed, left out when empty. */
const portfolioDescription = z
  .string()
  .trim()
  .max(500, "Description must be at most 500 characters")
  .nullable()
  .optional();
/** Blank or null means none; in an update, left out means unchanged. */
const emptyToNull = (value: string | null | undefined) =>
  value === undefined ? undefined : value ? value : null;

export const createPortfolioBodySchema = z.strictObject({
  name: portfolioName,
  description: portfolioDescription.transform((value) => emptyToNull(value) ?? null),
});
export type CreatePortfolioBody = z.infer<typeof createPortfolioBodySchema>;

export const updatePortfolioBodySchema = z
  .strictObject({ name: portfolioName.optional(), description: portfolioDescription.transform(emptyToNull) })
  .refine((body) => body.name !== undefined || body.description !== undefined, {
    message: "Nothing to update",
  });
export type UpdatePortfolioBody = z.infer<typeof updatePortfolioBodySchema>;
export type UpdatePortfolioInput = z.input<typeof updatePortfolioBodySchema>;

export const addPortfolioSitesBodySchema = z.strictObject({
  siteIds: z
    .array(z.string().trim().min(1).max(64))
    .min(1, "Choose at least one site")
    .max(500, "At most 500 sites at once"),
});
export type AddPortfolioSitesBody = z.infer<typeof addPortfolioSitesBodySchema>;

export const portfolioSiteParamSchema = z.strictObject({
  id: z.string().min(1).max(64),
  siteId: z.string().min(1).max(64),
});

/** A portfolio with totals summed from its sites. */
export const portfolioSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Absent when empty. */
  description: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  siteCount: z.number(),
  siteIds: z.array(z.string()),
  /** kW DC over its sites. */
  capacityKw: z.number(),
  /** W over its sites' systems with fresh data. */
  currentPowerW: z.number(),
  /** Wh since local midnight at each site. */
  todayEnergyWh: z.number(),
  /** Today's actual over irradiance-expected energy of its systems; null without an expectation. */
  performanceRatio: z.number().nullable(),
});
export type Portfolio = z.infer<typeof portfolioSchema>;

export const portfolioSitesAddedSchema = z.object({
  message: z.string(),
  /** How many of the sites were new to the portfolio. */
  added: z.number(),
  portfolio: portfolioSchema,
});
export type PortfolioSitesAdded = z.infer<typeof portfolioSitesAddedSchema>;

export const portfolioSiteRemovedSchema = z.object({ message: z.string(), portfolio: portfolioSchema });
export type PortfolioSiteRemoved = z.infer<typeof portfolioSiteRemovedSchema>;
