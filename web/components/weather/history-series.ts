import type { WeatherHistoryHour } from "../../../schema/api/weather-history";

const HOUR_MS = 3_600_000;

function hourFormat(locale: string, timeZone: string, withZone: boolean): Intl.DateTimeFormat {
  const options: Intl.DateTimeFormatOptions = {
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: withZone ? "short" : undefined,
  };
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone });
  } catch {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
  }
}

/**
 * Hour labels on the site's clock. The hour a DST change repeats (02:00 twice in autumn) would
 * read the same twice, so such hours carry the zone's name ("02:00 CEST", "02:00 CET").
 */
export function hourLabels(times: readonly string[], locale: string, timeZone: string): string[] {
  const plain = hourFormat(locale, timeZone, false);
  const zoned = hourFormat(locale, timeZone, true);
  const labels = times.map((time) => plain.format(new Date(time)));
  return labels.map((label, i) =>
    labels.indexOf(label) !== labels.lastIndexOf(label) ? zoned.format(new Date(times[i] ?? 0)) : label,
  );
}

export interface HourRow {
  label: string;
  irradianceWm2: number | null;
  powerKw: number | null;
  expectedKw: number | null;
}

/** The hours as chart rows: power in kW, irradiance in W/m², a missing value kept as a gap. */
export function historyRows(
  hours: readonly WeatherHistoryHour[],
  locale: string,
  timeZone: string,
): HourRow[] {
  const labels = hourLabels(
    hours.map((hour) => hour.time),
    locale,
    timeZone,
  );
  return hours.map((hour, i) => ({
    label: labels[i] ?? hour.time,
    irradianceWm2: hour.irradianceWm2,
    powerKw: hour.powerW === null ? null : hour.powerW / 1000,
    expectedKw: hour.expectedPowerW === null ? null : hour.expectedPowerW / 1000,
  }));
}

/** Whether the totals run to the end of the day (`through` is when the last counted hour ended). */
export function coversWholeDay(hours: readonly WeatherHistoryHour[], through: string | null): boolean {
  const last = hours[hours.length - 1];
  if (!last || through === null) return false;
  return Date.parse(through) >= Date.parse(last.time) + HOUR_MS;
}
