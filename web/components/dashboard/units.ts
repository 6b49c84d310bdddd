/**
 * Quantities format.ts has no function for (percentages, temperature, irradiance, wind), written
 * its way: Intl digits in the reader's locale, then the unit. Power and energy use format.ts.
 */
function decimal(value: number, locale: string, fractionDigits: number): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(value);
}

export const formatPercent = (percent: number, locale: string, fractionDigits = 1) =>
  `${decimal(percent, locale, fractionDigits)} %`;

/** A ratio (0.87) as a whole percentage (87 %). */
export const formatRatioPercent = (ratio: number, locale: string) => formatPercent(ratio * 100, locale, 0);

/** A signed change with one decimal: +12.5, −2.1, ±0.0. */
export function formatSignedDecimal(value: number, locale: string): string {
  const rounded = Math.round(value * 10) / 10;
  const sign = rounded > 0 ? "+" : rounded < 0 ? "−" : "±";
  return `${sign}${decimal(Math.abs(rounded), locale, 1)}`;
}

export const formatSignedPercent = (percent: number, locale: string) =>
  `${formatSignedDecimal(percent, locale)} %`;

export const formatTemperatureC = (celsius: number, locale: string) => `${decimal(celsius, locale, 1)} °C`;

export const formatIrradiance = (wattsPerM2: number, locale: string) =>
  `${decimal(Math.round(wattsPerM2), locale, 0)} W/m²`;

export const formatSpeedKmh = (kmh: number, locale: string) => `${decimal(kmh, locale, 1)} km/h`;

export const formatUvIndex = (uvIndex: number, locale: string) => decimal(uvIndex, locale, 1);

/** Hours and minutes in the user's zone, for chart axes (format.ts's times carry seconds). */
export function formatHourMinute(instant: number, locale: string, timeZone: string | undefined): string {
  try {
    return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", timeZone }).format(instant);
  } catch {
    return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", timeZone: "UTC" }).format(
      instant,
    );
  }
}
