import { z } from "zod";
import { currencyCodes, isCurrencyCode } from "../currencies";
import { numberInput } from "./sites";

/** A calendar day, `YYYY-MM-DD`, that exists (no 2026-02-30). */
export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date as YYYY-MM-DD")
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, "Use a date that exists");

/** An ISO 4217 code of a circulating currency, in any case ("eur" reads as EUR). */
export const currencyInput = z
  .string({
    error: (issue) => (issue.input === undefined ? "Currency is required" : "Currency must be text"),
  })
  .trim()
  .toUpperCase()
  .refine(isCurrencyCode, { message: "Currency must be an ISO 4217 code, such as EUR or USD" });

/** Per kWh in the tariff's currency; the upper bound takes currencies of many digits (IRR, VND). */
export const pricePerKwhInput = numberInput("Price per kWh").pipe(
  z
    .number()
    .min(0, "Price per kWh must not be negative")
    .max(1_000_000, "Price per kWh must be at most 1,000,000"),
);

/**
 * A price from a day on. `validFrom` left out: the scope's first price applies to every day, a
 * later one from today (on the site's clock; in UTC for the organisation's default). `validFrom`
 * null sets the first price, in force before the first dated change.
 */
export const putTariffBodySchema = z.strictObject({
  currency: currencyInput,
  pricePerKwh: pricePerKwhInput,
  validFrom: isoDateSchema.nullable().optional(),
});
export type PutTariffBody = z.infer<typeof putTariffBodySchema>;
export type PutTariffInput = z.input<typeof putTariffBodySchema>;

export const tariffSchema = z.object({
  currency: z.enum(currencyCodes),
  pricePerKwh: z.number(),
  /** The first day it is in force; null: in force before the first dated change. */
  validFrom: z.string().nullable(),
  updatedAt: z.string(),
});
export type Tariff = z.infer<typeof tariffSchema>;

export const tariffSources = ["site", "organization"] as const;
export type TariffSource = (typeof tariffSources)[number];

/** The price in force on one day, and whose it is. */
export const priceInForceSchema = tariffSchema.extend({ source: z.enum(tariffSources) });
export type PriceInForce = z.infer<typeof priceInForceSchema>;

/** An organisation's default prices, oldest first, and the one in force today (UTC). */
export const organizationTariffsSchema = z.object({
  tariffs: z.array(tariffSchema),
  current: tariffSchema.nullable(),
});
export type OrganizationTariffs = z.infer<typeof organizationTariffsSchema>;

/** A site's own prices and its organisation's default, oldest first, and the price in force today at the site. */
export const siteTariffsSchema = z.object({
  siteId: z.string(),
  /** The site's clock: `validFrom` days are its days. */
  timezone: z.string(),
  tariffs: z.array(tariffSchema),
  organizationTariffs: z.array(tariffSchema),
  /** Null when neither the site nor the organisation has a price. */
  current: priceInForceSchema.nullable(),
});
export type SiteTariffs = z.infer<typeof siteTariffsSchema>;
