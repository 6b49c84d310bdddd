/**
 * The causes a day's shortfall is split into, in the order screens show them: with actual they
 * add up to expected. Zod-free, so the client's loss screens read it without the API's schemas.
 */
export const lossCategories = [
  "downtime",
  "partialOutage",
  "clipping",
  "soiling",
  "underperformance",
  "unmeasured",
] as const;
export type LossCategory = (typeof lossCategories)[number];
