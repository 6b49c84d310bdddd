/** The one place numbers, units, dates and time zones are turned into text (SPEC section 9). */

const LOCALES: Record<string, string> = { en: "en-GB", es: "es-ES", fr: "fr-FR" };

/** The BCP 47 locale used for numbers and dates in an interface language. */
export function localeFor(language: string): string {
  return LOCALES[language.slice(0, 2)] ?? "en-GB";
}

function number(value: number, locale: string, fractionDigits: number): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(value);
}

/** 1000 W and above in kW with one decimal, below that whole watts. */
export function formatPowerW(powerW: number, locale = "en-GB"): string {
  if (Math.abs(Math.round(powerW)) >= 1000) return `${number(powerW / 1000, locale, 1)} kW`;
  return `${number(Math.round(powerW), locale, 0)} W`;
}

/** 1000 Wh and above in kWh with one decimal, below that whole watt-hours. */
export function formatEnergyWh(energyWh: number, locale = "en-GB"): string {
  if (Math.abs(Math.round(energyWh)) >= 1000) return `${number(energyWh / 1000, locale, 1)} kWh`;
  return `${number(Math.round(energyWh), locale, 0)} Wh`;
}

export function formatCapacityKw(capacityKw: number, locale = "en-GB"): string {
  const digits = Number.isInteger(capacityKw) ? 0 : 1;
  return `${number(capacityKw, locale, digits)} kW`;
}

export function formatCount(count: number, locale = "en-GB"): string {
  return number(count, locale, 0);
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

/** Avatar initials: the first two letters of the e-mail's local part, in capitals (SPEC section 2). */
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
