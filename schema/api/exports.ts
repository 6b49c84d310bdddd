import { z } from "zod";

/** `?format=csv` turns a list answer into a CSV download; JSON otherwise. */
export const exportFormatSchema = z.enum(["json", "csv"]).optional();
export type ExportFormat = z.infer<typeof exportFormatSchema>;

export const formatQuerySchema = z.object({ format: exportFormatSchema });

export const monthlyEnergyQuerySchema = z.strictObject({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Give the month as YYYY-MM"),
  format: exportFormatSchema,
});
export type MonthlyEnergyQuery = z.infer<typeof monthlyEnergyQuerySchema>;

export const monthlyEnergySchema = z.object({
  month: z.string(),
  sites: z.array(
    z.object({
      siteId: z.string(),
      siteName: z.string(),
      systemCount: z.number(),
      /** Sum of the systems' plant-local daily energy over the month's days. */
      energyWh: z.number(),
    }),
  ),
  portfolios: z.array(
    z.object({
      portfolioId: z.string(),
      portfolioName: z.string(),
      siteCount: z.number(),
      energyWh: z.number(),
    }),
  ),
});
export type MonthlyEnergy = z.infer<typeof monthlyEnergySchema>;
