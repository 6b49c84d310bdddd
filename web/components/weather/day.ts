import type { AnalyticsRange } from "../../lib/queries/analytics";

const DAY_MS = 86_400_000;

/** The calendar day (YYYY-MM-DD) an instant falls on in a zone; the browser's zone when none. */
export function localDate(instant: string | number | Date, timeZone?: string): string {
  const date = instant instanceof Date ? instant : new Date(instant);
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-CA", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      timeZone,
    });
  } catch {
    format = new Intl.DateTimeFormat("en-CA", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      timeZone: "UTC",
    });
  }
  return format.format(date);
}

/** Whole days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

export function shiftDate(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** How far back the Weather page reaches: 30d is the last range with an intraday (hourly) power series. */
export const WEATHER_MAX_DAYS_BACK = 29;

/**
 * The smallest analytics range whose power series covers the whole plant-local day: today is in
 * the last 24 h, the six days before in 7d (5-minute readings), older days in 30d (hourly means).
 * Null for a day the plant has not reached yet or beyond 30 days.
 */
export function rangeForDay(day: string, plantToday: string): AnalyticsRange | null {
  const back = daysBetween(day, plantToday);
  if (back < 0 || back > WEATHER_MAX_DAYS_BACK) return null;
  if (back === 0) return "24h";
  if (back < 7) return "7d";
  return "30d";
}
