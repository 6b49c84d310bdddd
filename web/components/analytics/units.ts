/**
 * Quantities web/lib/format.ts has no function for (percentages, ratios, kg, temperatures), written
 * the same way: Intl digits in the reader's locale, then the unit. Power and energy use format.ts.
 */
export function formatNumber(value: number, locale: string, fractionDigits = 1): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(value);
}

/** A percentage (84.2) the locale's way: "84.2%" in English, "84,2 %" in French. */
export function formatPercent(value: number | null, locale: string, fractionDigits = 1): string {
  if (value === null || !Number.isFinite(value)) return "—";
  return new Intl.NumberFormat(locale, {
    style: "percent",
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(value / 100);
}

/** A ratio such as the performance ratio (0.84) as a percentage (84 %). */
export function formatRatio(ratio: number | null, locale: string): string {
  return ratio === null ? "—" : formatPercent(ratio * 100, locale, 0);
}

export function formatKwhPerKw(value: number | null, locale: string): string {
  return value === null ? "—" : `${formatNumber(value, locale, 2)} kWh/kWp`;
}

export function formatKg(valueKg: number, locale: string): string {
  return valueKg >= 1000
    ? `${formatNumber(valueKg / 1000, locale, 2)} t`
    : `${formatNumber(valueKg, locale, 1)} kg`;
}

export function formatCelsius(value: number | null, locale: string): string {
  return value === null ? "—" : `${formatNumber(value, locale, 1)} °C`;
}

/** kW on a chart axis or tooltip (the series are in W): one decimal below 100 kW. */
export function formatKw(valueKw: number, locale: string): string {
  return `${formatNumber(valueKw, locale, Math.abs(valueKw) >= 100 ? 0 : 1)} kW`;
}

/** kWh on a chart: one decimal below 100 kWh, whole kWh above so axis labels stay short. */
export function formatKwh(valueKwh: number, locale: string): string {
  return `${formatNumber(valueKwh, locale, Math.abs(valueKwh) >= 100 ? 0 : 1)} kWh`;
}
