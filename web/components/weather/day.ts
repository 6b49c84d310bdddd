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

export function shiftDate(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * How far back the day picker reaches. The irradiance job fetches the last 7 days every hour and
 * keeps what it stored, so older days have irradiance wherever the job was already running.
 */
export const WEATHER_MAX_DAYS_BACK = 29;
