import { describe, expect, it } from "vitest";
import {
  dayEnergyWh,
  hourStartsOf,
  lastLocalDays,
  localDay,
  localDayOf,
} from "../../../worker/domain/energy/local-day";

const HOUR = 3_600_000;

describe("local days in the site's own zone", () => {
  it.each([
    ["Europe/Amsterdam", "2026-03-29", 23],
    ["Europe/Amsterdam", "2026-10-25", 25],
    ["Europe/Amsterdam", "2026-07-01", 24],
    ["Australia/Sydney", "2026-10-04", 23],
    ["Australia/Sydney", "2026-04-05", 25],
    ["America/Phoenix", "2026-03-08", 24],
  ])("%s %s lasts %i hours", (zone, date, hours) => {
    const day = localDay(date, zone);
    expect((day.endMs - day.startMs) / HOUR).toBe(hours);
  });

  it("places a UTC instant on the local date, not the UTC or viewer's date", () => {
    // 23:30 UTC on 30 June is already 1 July in Amsterdam and still 30 June in Phoenix.
    const at = Date.UTC(2026, 5, 30, 23, 30);
    expect(localDayOf(at, "Europe/Amsterdam").date).toBe("2026-07-01");
    expect(localDayOf(at, "America/Phoenix").date).toBe("2026-06-30");
    expect(localDayOf(at, "Australia/Sydney").date).toBe("2026-07-01");
  });

  it("lists consecutive days across a DST change", () => {
    const days = lastLocalDays(Date.UTC(2026, 9, 26, 12), "Europe/Amsterdam", 3);
    expect(days.map((d) => d.date)).toEqual(["2026-10-24", "2026-10-25", "2026-10-26"]);
    expect(days.map((d) => (d.endMs - d.startMs) / HOUR)).toEqual([24, 25, 24]);
    expect(days[1]?.startMs).toBe(days[0]?.endMs);
  });

  it("answers the days of the local day the instant falls in, asked again across midnight and in other zones", () => {
    // 21:59 UTC is still 26 October in Amsterdam (UTC+1); 23:00 UTC is the 27th there.
    const before = lastLocalDays(Date.UTC(2026, 9, 26, 22, 59), "Europe/Amsterdam", 2);
    expect(before.map((d) => d.date)).toEqual(["2026-10-25", "2026-10-26"]);
    const after = lastLocalDays(Date.UTC(2026, 9, 26, 23, 0), "Europe/Amsterdam", 2);
    expect(after.map((d) => d.date)).toEqual(["2026-10-26", "2026-10-27"]);
    // 13:00 UTC is midnight starting 27 October in Sydney (UTC+11), still the 26th in Amsterdam.
    expect(lastLocalDays(Date.UTC(2026, 9, 26, 13, 0), "Australia/Sydney", 2).map((d) => d.date)).toEqual([
      "2026-10-26",
      "2026-10-27",
    ]);
    // Back to the earlier day, and a caller changing its copy changes no later answer.
    const again = lastLocalDays(Date.UTC(2026, 9, 26, 12), "Europe/Amsterdam", 2);
    expect(again.map((d) => d.date)).toEqual(["2026-10-25", "2026-10-26"]);
    again[0] = { date: "changed", startMs: 0, endMs: 0 };
    (again[1] as { date: string }).date = "changed";
    expect(lastLocalDays(Date.UTC(2026, 9, 26, 13), "Europe/Amsterdam", 2).map((d) => d.date)).toEqual([
      "2026-10-25",
      "2026-10-26",
    ]);
  });
});

describe("the hours of a local day", () => {
  it("lists the UTC hours that start inside the day: 25 on the autumn DST day", () => {
    const hours = hourStartsOf(localDay("2026-10-25", "Europe/Amsterdam"));
    expect(hours).toHaveLength(25);
    expect(new Date(hours[0] ?? 0).toISOString()).toBe("2026-10-24T22:00:00.000Z");
    expect(new Date(hours.at(-1) ?? 0).toISOString()).toBe("2026-10-25T22:00:00.000Z");
  });

  it("keeps to the stored hour grid in a zone with a half-hour offset", () => {
    // Kolkata's day starts at 18:30 UTC; the first stored hour inside it starts at 19:00 UTC.
    const hours = hourStartsOf(localDay("2026-06-10", "Asia/Kolkata"));
    expect(hours).toHaveLength(24);
    expect(new Date(hours[0] ?? 0).toISOString()).toBe("2026-06-09T19:00:00.000Z");
    expect(new Date(hours.at(-1) ?? 0).toISOString()).toBe("2026-06-10T18:00:00.000Z");
  });
});

describe("energy of a local day", () => {
  it("takes the day's highest energy-today counter, ignoring the next day's reset", () => {
    const day = localDay("2026-10-25", "Europe/Amsterdam");
    const points = [
      { time: day.startMs - HOUR, energyTodayWh: 9999, powerW: 0 },
      { time: day.startMs + 10 * HOUR, energyTodayWh: 4000, powerW: 2000 },
      { time: day.startMs + 24.5 * HOUR, energyTodayWh: 12000, powerW: 0 },
      { time: day.endMs + HOUR, energyTodayWh: 100, powerW: 500 },
    ];
    // 24.5 h after midnight is still the same day on this 25-hour day.
    expect(dayEnergyWh(points, day)).toBe(12000);
  });

  it("integrates power when the vendor has no counter, without bridging long gaps", () => {
    const day = localDay("2026-07-01", "Australia/Sydney");
    const t = day.startMs + 10 * HOUR;
    const points = [
      { time: t, energyTodayWh: null, powerW: 1200 },
      { time: t + 5 * 60_000, energyTodayWh: null, powerW: 1200 },
      { time: t + 10 * 60_000, energyTodayWh: null, powerW: 600 },
      { time: t + 4 * HOUR, energyTodayWh: null, powerW: 0 },
    ];
    // 1200 W × 5 min + 1200 W × 5 min + 600 W × 15 min (gap capped) = 100 + 100 + 150 Wh.
    expect(dayEnergyWh(points, day)).toBe(350);
  });
});
