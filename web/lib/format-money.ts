/** Money and currencies as text, apart from lib/format so the pages without money do not carry them. */

/**
 * An amount of money in an ISO 4217 currency, the locale's way ("€1,234.56", "1 234,56 €"): the
 * currency's own decimals, none from 10,000 on so large losses stay short. "—" for no amount.
 */
export function formatMoney(amount: number | null, currency: string, locale: string): string {
  if (amount === null || !Number.isFinite(amount)) return "—";
  const whole = Math.abs(amount) >= 10_000;
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency,
    ...(whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
  }).format(amount);
}

/** A price per kWh with up to four decimals ("€0.2534/kWh", "0,2534 €/kWh"). */
export function formatPricePerKwh(price: number, currency: string, locale: string): string {
  const money = new Intl.NumberFormat(locale, {
    style: "currency",
    currency,
    maximumFractionDigits: 4,
  }).format(price);
  return `${money}/kWh`;
}

/** A currency's name in the reader's language ("euro", "US dollar"), the code where unknown. */
export function currencyName(currency: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: "currency" }).of(currency) ?? currency;
  } catch {
    return currency;
  }
}
