import { DateTime } from "luxon";
import { quantile } from "./calibration";

/*
 * Soiling in the spirit of RdTools' stochastic rate and recovery method (Deceglie, Micheli and
 * Muller, IEEE JPV 8(2), 2018): the daily performance index (a day's healthy ratio over the
 * calibration) is cut into intervals at cleanings — rain of at least RAIN_CLEANS_MM that day, or
 * a step up in the index (someone washed the panels) — and in each interval long enough a robust
 * Theil–Sen line is fitted. An interval whose index falls significantly loses, each day, the
 * fitted fall since the interval began (a cleaning is taken to clean fully); rising or flat ones
 * lose nothing. The day's soiling loss is that share of what soiling could have taken (what is
 * left of the shortfall is underperformance, negative when the day did better).
 */

/** Rain that washes panels: RdTools' default precipitation threshold is of this order. */
export const RAIN_CLEANS_MM = 2;
/** A rise of the index this large between the days before and after counts as a cleaning. */
const CLEANING_STEP = 0.05;
/** An interval needs this many days with an index for its slope to mean anything. */
const MIN_INDEX_DAYS = 4;
/** Slopes flatter than this (per day) are noise, not soiling. */
const MIN_RATE_PER_DAY = 0.0015;

export interface SoilingDay {
  /** Plant-local YYYY-MM-DD; days oldest first. */
  date: string;
  /** Performance index: the day's healthy ratio over the calibration; null on days too dull or broken to say. */
  index: number | null;
  precipitationMm: number;
  /** Expected energy soiling could have taken that day, Wh. */
  soilableWh: number;
}

export interface SoilingEstimate {
  date: string;
  /** 1 clean; 0.95 means 5 % of the light is lost to dirt. */
  soilingRatio: number;
  soilingWh: number;
}

const median = (values: number[]) => quantile(values, 0.5);

/** Theil–Sen: the median of pairwise slopes and the median intercept. */
export function theilSen(points: { x: number; y: number }[]): { slope: number; intercept: number } {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const a = points[i] as { x: number; y: number };
      const b = points[j] as { x: number; y: number };
      if (b.x !== a.x) slopes.push((b.y - a.y) / (b.x - a.x));
    }
  }
  const slope = slopes.length > 0 ? median(slopes) : 0;
  return { slope, intercept: median(points.map((p) => p.y - slope * p.x)) };
}

const dayNumber = (date: string) => Math.round(DateTime.fromISO(date, { zone: "utc" }).toSeconds() / 86_400);

/** Indices of days that start a new interval: rain, or a step up in the index. */
function cleanings(days: SoilingDay[]): Set<number> {
  const starts = new Set<number>([0]);
  days.forEach((day, i) => {
    if (day.precipitationMm >= RAIN_CLEANS_MM) starts.add(i);
  });
  const indexed = days.map((day, i) => ({ i, index: day.index })).filter((d) => d.index !== null);
  for (let k = 3; k + 2 < indexed.length; k++) {
    const before = median(indexed.slice(k - 3, k).map((d) => d.index as number));
    const after = median(indexed.slice(k, k + 3).map((d) => d.index as number));
    if (after - before >= CLEANING_STEP) starts.add(indexed[k]?.i as number);
  }
  return starts;
}

/**
 * Each day's soiling ratio and loss. An interval too short to fit (the one still running, the
 * first one cut by the window) soils at the median rate the fitted ones showed, as RdTools takes
 * the rates it saw for the stretches it cannot fit.
 */
export function estimateSoiling(days: SoilingDay[]): SoilingEstimate[] {
  const ratios = days.map(() => 1);
  const starts = [...cleanings(days)].sort((a, b) => a - b);
  const intervals = starts.map((start, s) => {
    const end = starts[s + 1] ?? days.length;
    const origin = dayNumber((days[start] as SoilingDay).date);
    const points = days
      .slice(start, end)
      .filter((day) => day.index !== null)
      .map((day) => ({ x: dayNumber(day.date) - origin, y: day.index as number }));
    if (points.length < MIN_INDEX_DAYS) return { start, end, origin, rate: null as number | null };
    const { slope, intercept } = theilSen(points);
    // A rising or flat interval is clean (rate 0), one falling significantly soils at its rate.
    const rate = intercept > 0 && slope / intercept < -MIN_RATE_PER_DAY ? -slope / intercept : 0;
    return { start, end, origin, rate };
  });
  const fitted = intervals.flatMap((interval) => (interval.rate === null ? [] : [interval.rate]));
  const typicalRate = fitted.length > 0 ? median(fitted) : 0;
  for (const { start, end, origin, rate } of intervals) {
    const perDay = rate ?? typicalRate;
    if (perDay <= 0) continue;
    for (let i = start; i < end; i++) {
      const x = dayNumber((days[i] as SoilingDay).date) - origin;
      ratios[i] = Math.min(1, Math.max(0, 1 - perDay * x));
    }
  }
  return days.map((day, i) => {
    const soilingRatio = Math.round((ratios[i] ?? 1) * 10_000) / 10_000;
    const soilingWh = Math.round((1 - soilingRatio) * Math.max(0, day.soilableWh));
    return { date: day.date, soilingRatio, soilingWh };
  });
}
