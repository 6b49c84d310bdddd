/**
 * Quantities format.ts has no function for (irradiation, sun hours, angles), written the same way:
 * Intl digits in the reader's locale, then the unit. Power, energy and capacity use format.ts.
 */
export function formatDecimal(value: number, locale: string, fractionDigits = 1): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(value);
}

/** kWh amounts from the yield estimate (whole kWh; format.ts works in Wh). */
export function formatKwh(energyKwh: number, locale: string): string {
  return `${formatDecimal(Math.round(energyKwh), locale, 0)} kWh`;
}
