/** The one place numbers, units, dates and time zones are turned into text. */

const LOCALES: Record<string, string> = { en: "en-GB", es: "es-ES", fr: "fr-FR" };

/** The BCP 47 locale used for numbers and dates in an interface language. */
export function localeFor(language: string): string {
  return LOCALES[language.slice(0, 2)] ?? "en-GB";
}

/** A plain number with a fixed count of decimals, for quantities this module has no unit function for. */
export function formatNumber(value: number, locale: string, fractionDigits: number): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(value);
}

/** 1000 W and above in kW with one decimal, below that whole watts; "—" for none. */
export function formatPowerW(powerW: number | null, locale = "en-GB"): string {
  if (powerW === null) return "—";
  if (Math.abs(Math.round(powerW)) >= 1000) return `${formatNumber(powerW / 1000, locale, 1)} kW`;
  return `${formatNumber(Math.round(powerW), locale, 0)} W`;
}

/** 1000 Wh and above in kWh with one decimal, below that whole watt-hours. */
export function formatEnergyWh(energyWh: number, locale = "en-GB"): string {
  if (Math.abs(Math.round(energyWh)) >= 1000) return `${formatNumber(energyWh / 1000, locale, 1)} kWh`;
  return `${formatNumber(Math.round(energyWh), locale, 0)} Wh`;
}

export function formatCapacityKw(capacityKw: number, locale = "en-GB"): string {
  const digits = Number.isInteger(capacityKw) ? 0 : 1;
  return `${formatNumber(capacityKw, locale, digits)} kW`;
}

export function formatCount(count: number, locale = "en-GB"): string {
  return formatNumber(count, locale, 0);
}

/** kW on a chart axis or tooltip: one decimal below 100 kW, whole kW above. */
export function formatKw(valueKw: number, locale: string): string {
  return `${formatNumber(valueKw, locale, Math.abs(valueKw) >= 100 ? 0 : 1)} kW`;
}

/** kWh as charts and estimates hold it: one decimal below 100 kWh, whole kWh above so labels stay short. */
export function formatKwh(valueKwh: number, locale: string): string {
  return `${formatNumber(valueKwh, locale, Math.abs(valueKwh) >= 100 ? 0 : 1)} kWh`;
}

/** Specific yield, energy per installed kWp. */
export function formatKwhPerKw(yieldKwhPerKw: number | null, locale: string): string {
  return yieldKwhPerKw === null ? "—" : `${formatNumber(yieldKwhPerKw, locale, 2)} kWh/kWp`;
}

/** A percentage (84.2) the locale's way: "84.2%" in English, "84,2 %" in French. */
export function formatPercent(percent: number | null, locale: string, fractionDigits = 1): string {
  if (percent === null || !Number.isFinite(percent)) return "—";
  return new Intl.NumberFormat(locale, {
    style: "percent",
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(percent / 100);
}

/** A ratio such as the performance ratio (0.84) as a whole percentage (84%). */
export function formatRatio(ratio: number | null, locale: string): string {
  return ratio === null ? "—" : formatPercent(ratio * 100, locale, 0);
}

// A typographic minus, and ± for zero, which Intl's signDisplay does not write.
const signOf = (value: number) => (value > 0 ? "+" : value < 0 ? "−" : "±");

/** A change with one decimal and always a sign: +12.5, −2.1, ±0.0 (the sign of what is shown). */
export function formatSignedDecimal(value: number, locale: string): string {
  const rounded = Math.round(value * 10) / 10;
  return `${signOf(rounded)}${formatNumber(Math.abs(rounded), locale, 1)}`;
}

/** A percentage change with one decimal and always a sign: +12.5%, −2.1%, ±0.0%. */
export function formatSignedPercent(percent: number, locale: string): string {
  const rounded = Math.round(percent * 10) / 10;
  return `${signOf(rounded)}${formatPercent(Math.abs(rounded), locale, 1)}`;
}

/** From a tonne up in t with two decimals, below that in kg with one. */
export function formatKg(valueKg: number, locale: string): string {
  return valueKg >= 1000
    ? `${formatNumber(valueKg / 1000, locale, 2)} t`
    : `${formatNumber(valueKg, locale, 1)} kg`;
}

export function formatCelsius(celsius: number | null, locale: string): string {
  return celsius === null ? "—" : `${formatNumber(celsius, locale, 1)} °C`;
}

export function formatIrradiance(irradianceWm2: number, locale: string): string {
  return `${formatNumber(irradianceWm2, locale, 0)} W/m²`;
}

export function formatSpeedKmh(speedKmh: number, locale: string): string {
  return `${formatNumber(speedKmh, locale, 1)} km/h`;
}

export function formatUvIndex(uvIndex: number, locale: string): string {
  return formatNumber(uvIndex, locale, 1);
}

/** Whole pounds per month on the pricing page, in the reader's locale (£29, 29 £). */
export function formatPriceGbp(amountGbp: number, locale = "en-GB"): string {
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency: "GBP",
    // "£" everywhere: French would otherwise write "£GB".
    currencyDisplay: "narrowSymbol",
    maximumFractionDigits: 0,
  }).format(amountGbp);
}

function safeTimeZone(timeZone: string | undefined): string | undefined {
  if (!timeZone) return undefined;
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone });
    return timeZone;
  } catch {
    return "UTC";
  }
}

function toDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export interface DateFormatOptions {
  locale?: string;
  /** IANA zone from the user's preferences; the browser's zone when absent. */
  timeZone?: string;
}

export function formatDateTime(value: string | number | Date, options: DateFormatOptions = {}): string {
  const date = toDate(value);
  if (!date) return "—";
  return new Intl.DateTimeFormat(options.locale ?? "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: safeTimeZone(options.timeZone),
  }).format(date);
}

export function formatDate(value: string | number | Date, options: DateFormatOptions = {}): string {
  const date = toDate(value);
  if (!date) return "—";
  return new Intl.DateTimeFormat(options.locale ?? "en-GB", {
    dateStyle: "medium",
    timeZone: safeTimeZone(options.timeZone),
  }).format(date);
}

export function formatTime(value: string | number | Date, options: DateFormatOptions = {}): string {
  const date = toDate(value);
  if (!date) return "—";
  return new Intl.DateTimeFormat(options.locale ?? "en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZone: safeTimeZone(options.timeZone),
  }).format(date);
}

/** Hours and minutes without seconds, for chart axes. */
export function formatHourMinute(value: string | number | Date, options: DateFormatOptions = {}): string {
  const date = toDate(value);
  if (!date) return "—";
  return new Intl.DateTimeFormat(options.locale ?? "en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: safeTimeZone(options.timeZone),
  }).format(date);
}

/** Avatar initials: the first two letters of the e-mail's local part, in capitals. */
export function initialsFromEmail(email: string): string {
  const localPart = email.split("@")[0] ?? "";
  return localPart.slice(0, 2).toUpperCase();
}

/** `YYYY-MM-DD` from a date input as the ISO instant of that local day's start or end. */
export function dayBoundaryIso(day: string, boundary: "start" | "end"): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const [, year, month, date] = match.map(Number) as [number, number, number, number];
  const local =
    boundary === "start"
      ? new Date(year, month - 1, date, 0, 0, 0, 0)
      : new Date(year, month - 1, date, 23, 59, 59, 999);
  return Number.isNaN(local.getTime()) ? undefined : local.toISOString();
}
