import type { LossesByCategory } from "../../../schema/api/losses";
import { type LossCategory, lossCategories } from "../../../schema/loss-categories";

/*
 * Valuing energy: one answer is in one currency. It is the one the organisation's default price
 * is in on the period's last day, else the one most of the period's prices are in; energy priced
 * in another currency (a site priced apart) is left unvalued rather than added up across currencies.
 */

export interface Price {
  currency: string;
  pricePerKwh: number;
}

export function answerCurrency(preferred: Price | null, prices: (Price | null)[]): string | null {
  if (preferred) return preferred.currency;
  const counts = new Map<string, number>();
  for (const price of prices) if (price) counts.set(price.currency, (counts.get(price.currency) ?? 0) + 1);
  let best: string | null = null;
  for (const [currency, count] of counts)
    if (best === null || count > (counts.get(best) ?? 0)) best = currency;
  return best;
}

/** The value of `kwh` at `price` in `currency`, or null when the price is missing or in another currency. */
export const priceEnergy = (kwh: number, price: Price | null, currency: string | null): number | null =>
  price !== null && price.currency === currency ? kwh * price.pricePerKwh : null;

/** Sums values where any is known (unknown ones count nothing); null when none is. */
export function sumValues(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0);
}

/** Money rounded to the hundredth (the answers' precision). */
export const roundMoney = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

/** The category that lost the most energy; null when none lost anything. */
export function mainCause(losses: LossesByCategory): LossCategory | null {
  let best: LossCategory | null = null;
  for (const category of lossCategories) {
    if (losses[category] > 0 && (best === null || losses[category] > losses[best])) best = category;
  }
  return best;
}
