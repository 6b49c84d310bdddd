import { z } from "zod";
import { currencyCodes } from "../currencies";
import { type LossCategory, lossCategories } from "../loss-categories";
import { isoDateSchema } from "./tariffs";

/*
 * Losses in kWh and money (GET /api/losses, GET /api/losses/ranking): each plant-local day's
 * expected energy split into what the system gave and what it lost, by cause, valued at the
 * price in force that day (the site's tariff, else the organisation's default).
 * expected = actual + downtime + partialOutage + clipping + soiling + underperformance + unmeasured.
 */

/** kWh per cause. Underperformance is negative when the system did better than its calibration. */
export const lossesByCategorySchema = z.object(
  Object.fromEntries(lossCategories.map((category) => [category, z.number()])) as Record<
    LossCategory,
    z.ZodNumber
  >,
);
export type LossesByCategory = z.infer<typeof lossesByCategorySchema>;

/** The longest period one answer covers. */
export const MAX_LOSS_RANGE_DAYS = 366;

const dayCount = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

const scopeId = z.string().min(1).max(64);

/**
 * One scope (a site, a system or a portfolio; none for the whole fleet) and a period of its
 * plant-local days, both ends included.
 */
export const lossesQuerySchema = z
  .strictObject({
    siteId: scopeId.optional(),
    systemId: scopeId.optional(),
    portfolioId: scopeId.optional(),
    from: isoDateSchema,
    to: isoDateSchema,
    format: z.enum(["json", "csv"]).optional(),
  })
  .superRefine((query, ctx) => {
    const scopes = [query.siteId, query.systemId, query.portfolioId].filter((id) => id !== undefined);
    if (scopes.length > 1) {
      ctx.addIssue({
        code: "custom",
        path: ["siteId"],
        message: "Give one of siteId, systemId and portfolioId (none: the whole fleet)",
      });
    }
    if (query.from > query.to) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "from must not be after to" });
    } else if (dayCount(query.from, query.to) > MAX_LOSS_RANGE_DAYS) {
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: `A period covers at most ${MAX_LOSS_RANGE_DAYS} days`,
      });
    }
  });
export type LossesQuery = z.infer<typeof lossesQuerySchema>;

/** Money in the answer's currency; null when no price is in force for the energy it values. */
const money = z.number().nullable();

export const lossDaySchema = z.object({
  /** YYYY-MM-DD on the site's clock. */
  date: z.string(),
  expectedKwh: z.number(),
  actualKwh: z.number(),
  lostValue: money,
  losses: lossesByCategorySchema,
});
export type LossDay = z.infer<typeof lossDaySchema>;

export const lossesAnswerSchema = z.object({
  /**
   * ISO 4217; null when no price is in force for any of the days. Prices in another currency (a
   * site priced apart from the organisation's default) value nothing in this answer.
   */
  currency: z.enum(currencyCodes).nullable(),
  from: z.string(),
  to: z.string(),
  totals: z.object({
    expectedKwh: z.number(),
    actualKwh: z.number(),
    revenue: money,
    lostValue: money,
    /** Expected under a clear sky less expected: what the weather took, beside the losses, not in them. */
    weatherKwh: z.number(),
    losses: lossesByCategorySchema,
  }),
  /** Each day with an account, oldest first; days not accounted yet (today, missing weather) are absent. */
  days: z.array(lossDaySchema),
});
export type LossesAnswer = z.infer<typeof lossesAnswerSchema>;

/** Sites per page of the ranking unless `pageSize` says otherwise: a fleet of up to 1,000 sites is one page. */
export const LOSS_RANKING_PAGE_SIZE = 1_000;

export const lossRankingQuerySchema = z.strictObject({
  days: z.enum(["7", "30"]).default("7").transform(Number),
  /** 1-based; a page past the last has no sites. */
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(LOSS_RANKING_PAGE_SIZE).default(LOSS_RANKING_PAGE_SIZE),
});
export type LossRankingQuery = z.infer<typeof lossRankingQuerySchema>;

export const lossRankingAnswerSchema = z.object({
  currency: z.enum(currencyCodes).nullable(),
  /** Sites ranked in all pages (also in `X-Total-Count`, with `Link` headers to the other pages). */
  total: z.number().int(),
  page: z.number().int(),
  pageCount: z.number().int(),
  /**
   * Ranked sites that lost energy in the period; they come first, so a screen showing only them
   * pages through the first `sitesWithLoss` (a site that made at least its expected energy follows).
   */
  sitesWithLoss: z.number().int(),
  /**
   * One page of the sites with an account in their last `days` finished days, those that lost
   * energy first, each part by lost value (lost energy without a price), worst first.
   */
  sites: z.array(
    z.object({
      siteId: z.string(),
      name: z.string(),
      lostValue: money,
      lostKwh: z.number(),
      /** The cause that lost the most energy; null when nothing was lost. */
      mainCause: z.enum(lossCategories).nullable(),
    }),
  ),
});
export type LossRankingAnswer = z.infer<typeof lossRankingAnswerSchema>;
