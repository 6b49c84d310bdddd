import { describe, expect, it, vi } from "vitest";
import { generationChartData } from "../../web/components/dashboard/generation-series";
import { localDate } from "../../web/components/dashboard/local-day";
import { fallbackSummary, fetchDashboardSummary } from "../../web/lib/queries/dashboard";
import { createQueryClient, isCancellation } from "../../web/lib/query-client";
import { makeProfile, storeSession } from "./helpers";

describe("plant-local days", () => {
  it("dates an instant in the site's zone, not the viewer's", () => {
    // 13:30 UTC on 4 April is already 5 April in Sydney.
    expect(localDate(Date.parse("2026-04-04T13:30:00Z"), "Australia/Sydney")).toBe("2026-04-05");
    expect(localDate(Date.parse("2026-04-04T13:30:00Z"), "America/New_York")).toBe("2026-04-04");
  });
});

describe("the generation chart's rows", () => {
  const generation = [
    { time: "2026-06-10T06:00:00.000Z", values: { fronius: 300, solis: 1200 } },
    { time: "2026-06-10T07:00:00.000Z", values: { solis: 2500 } },
  ];
  /** The viewer's day in UTC, read at 08:20. */
  const utcDay = {
    generation,
    generatedAt: "2026-06-10T08:20:00.000Z",
    day: { start: "2026-06-10T00:00:00.000Z", end: "2026-06-11T00:00:00.000Z" },
  };

  it("covers the viewer's whole day: past hours stack silent providers at 0 W, later hours are empty", () => {
    const { providers, rows } = generationChartData(utcDay, "en-GB", "UTC");
    expect(providers).toEqual(["solis", "fronius"]);
    expect(rows).toHaveLength(24);
    expect(rows[0]).toEqual({ time: "00:00", Solis: 0, Fronius: 0 });
    expect(rows[6]).toEqual({ time: "06:00", Solis: 1200, Fronius: 300 });
    expect(rows[7]).toEqual({ time: "07:00", Solis: 2500, Fronius: 0 });
    // 08:00 has begun (no rollup yet); 09:00 has not.
    expect(rows[8]).toEqual({ time: "08:00", Solis: 0, Fronius: 0 });
    expect(rows[9]).toEqual({ time: "09:00" });
    expect(rows[23]).toEqual({ time: "23:00" });
  });

  it("labels each hour in the viewer's zone, with 23 hours on a spring-forward day", () => {
    // Amsterdam's 29 March 2026 starts at 23:00 UTC the day before and lasts 23 hours.
    const springDay = {
      generation: [{ time: "2026-03-29T06:00:00.000Z", values: { solis: 900 } }],
      generatedAt: "2026-03-29T12:00:00.000Z",
      day: { start: "2026-03-28T23:00:00.000Z", end: "2026-03-29T22:00:00.000Z" },
    };
    const rows = generationChartData(springDay, "en-GB", "Europe/Amsterdam").rows;
    expect(rows).toHaveLength(23);
    expect(rows.slice(0, 4).map((row) => row.time)).toEqual(["00:00", "01:00", "03:00", "04:00"]);
    expect(rows.find((row) => row.time === "08:00")).toEqual({ time: "08:00", Solis: 900 });
    // Kolkata is UTC+05:30: its midnight is 18:30 UTC, so the stored UTC hours fall on the half hour.
    const kolkata = generationChartData(
      { ...utcDay, day: { start: "2026-06-09T18:30:00.000Z", end: "2026-06-10T18:30:00.000Z" } },
      "en-GB",
      "Asia/Kolkata",
    ).rows;
    expect(kolkata[0]?.time).toBe("00:30");
    expect(kolkata.find((row) => row.time === "11:30")).toEqual({ time: "11:30", Solis: 1200, Fronius: 300 });
  });

  it("has no providers before the first hour with data", () => {
    const { providers, rows } = generationChartData({ ...utcDay, generation: [] }, "en-GB", "UTC");
    expect(providers).toEqual([]);
    expect(rows[0]).toEqual({ time: "00:00" });
  });
});

describe("the summary fallback", () => {
  it("builds one solis system with the generation in Wh when sites matched, else no systems", () => {
    const summary = fallbackSummary({
      matchedSites: 3,
      totalCurrentPower: 4500,
      totalTodayGeneration: 12.345,
    });
    expect(summary).toMatchObject({
      systemCount: 1,
      totals: { systemCount: 1, powerW: 4500, todayWh: 12_345 },
    });
    expect(summary.providers.find((row) => row.provider === "solis")).toMatchObject({
      systemCount: 1,
      powerW: 4500,
    });
    expect(
      fallbackSummary({ matchedSites: 0, totalCurrentPower: 0, totalTodayGeneration: 0 }).systemCount,
    ).toBe(0);
    expect(fallbackSummary({ nonsense: true }).systemCount).toBe(0);
  });
});

describe("a cancelled summary read", () => {
  it("is passed on as a cancellation: no fallback call and nothing logged", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      init?.signal?.throwIfAborted();
      return new Response("{}", { headers: { "Content-Type": "application/json" } });
    });
    vi.stubGlobal("fetch", fetchMock);
    storeSession(makeProfile());
    const controller = new AbortController();
    controller.abort();
    const error = await fetchDashboardSummary(controller.signal).catch((caught: unknown) => caught);
    expect(isCancellation(error)).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(errors).not.toHaveBeenCalled();
  });

  it("is not logged as a failed query when the query is cancelled", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const client = createQueryClient();
    const pending = client.fetchQuery({
      queryKey: ["slow"],
      queryFn: ({ signal }) =>
        new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
    });
    await client.cancelQueries({ queryKey: ["slow"] });
    expect(isCancellation(await pending.catch((caught: unknown) => caught))).toBe(true);
    expect(errors).not.toHaveBeenCalled();
  });
});
