import { DateTime } from "luxon";
import { lastLocalDays } from "../energy/local-day";

/** A calendar date `days` later (earlier when negative), YYYY-MM-DD. */
export const shiftDate = (date: string, days: number) =>
  DateTime.fromISO(date, { zone: "utc" }).plus({ days }).toISODate() ?? date;

/** The calendar dates from `from` to `to`, both included. */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let date = from; date <= to; date = shiftDate(date, 1)) dates.push(date);
  return dates;
}

/** The last `count` finished plant-local days before the day holding `now` in `zone`, oldest first. */
export function finishedDays(now: number, zone: string, count: number): string[] {
  return lastLocalDays(now, zone, count + 1)
    .slice(0, count)
    .map((day) => day.date);
}
