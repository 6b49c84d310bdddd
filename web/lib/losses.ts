import type { LossesByCategory } from "../../schema/api/losses";
import { type LossCategory, lossCategories } from "../../schema/loss-categories";

/**
 * What the screens know about losses: the categories in the order they are shown (with actual
 * they add up to expected), their colours, which of them are recoverable, and the periods a
 * reader picks from.
 */

/** Tremor colour names, one per category; the weather's share is sky, beside them. */
export const categoryColors: Record<LossCategory, string> = {
  downtime: "red",
  partialOutage: "orange",
  clipping: "violet",
  soiling: "amber",
  underperformance: "fuchsia",
  unmeasured: "gray",
};

/** Bar colours for the hand-drawn waterfall (Tailwind classes the build keeps). */
export const categoryBarClasses: Record<LossCategory, string> = {
  downtime: "bg-red-500",
  partialOutage: "bg-orange-500",
  clipping: "bg-violet-500",
  soiling: "bg-amber-500",
  underperformance: "bg-fuchsia-500",
  unmeasured: "bg-gray-400",
};

/**
 * Losses someone can win back: an outage fixed, panels cleaned, a fault found. Clipping is the
 * inverter's design and unmeasured energy is unknown, so neither counts.
 */
export const recoverableCategories: readonly LossCategory[] = [
  "downtime",
  "partialOutage",
  "soiling",
  "underperformance",
];

/** Lost energy: every category, a negative one (better than the calibration) counting against the rest. */
export const sumLosses = (losses: LossesByCategory, categories: readonly LossCategory[] = lossCategories) =>
  categories.reduce((sum, category) => sum + (losses[category] ?? 0), 0);

/** What repairs and cleaning could win back: the recoverable categories' losses, none below 0. */
export const recoverableLosses = (losses: LossesByCategory) =>
  recoverableCategories.reduce((sum, category) => sum + Math.max(losses[category] ?? 0, 0), 0);

/** The category that cost most, or null when nothing was lost. */
export function mainCause(losses: LossesByCategory): LossCategory | null {
  let worst: LossCategory | null = null;
  for (const category of lossCategories) {
    if (losses[category] > 0 && (worst === null || losses[category] > losses[worst])) worst = category;
  }
  return worst;
}

/** Today (`YYYY-MM-DD`) in an IANA zone; the browser's when the zone is unknown. */
export function todayIn(timeZone: string | undefined, now = new Date()): string {
  try {
    return new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(now);
  } catch {
    return new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit" }).format(
      now,
    );
  }
}

const DAY_MS = 86_400_000;
const dayMs = (date: string) => Date.parse(`${date}T00:00:00Z`);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const addDays = (date: string, days: number) => isoDay(dayMs(date) + days * DAY_MS);

export const lossPeriods = ["last7", "last30", "thisMonth", "lastMonth"] as const;
export type LossPeriod = (typeof lossPeriods)[number];

export interface DateRange {
  from: string;
  to: string;
}

/**
 * A period's days, both ends included, by the site's `today`: the last 7 or 30 finished days (today
 * is not accounted before it ends; the ranking counts the same days), this month so far, or the
 * whole of last month.
 */
export function periodRange(period: LossPeriod, today: string): DateRange {
  switch (period) {
    case "last7":
      return { from: addDays(today, -7), to: addDays(today, -1) };
    case "last30":
      return { from: addDays(today, -30), to: addDays(today, -1) };
    case "thisMonth":
      return { from: `${today.slice(0, 7)}-01`, to: today };
    case "lastMonth": {
      const firstOfThis = `${today.slice(0, 7)}-01`;
      const lastOfPrevious = addDays(firstOfThis, -1);
      return { from: `${lastOfPrevious.slice(0, 7)}-01`, to: lastOfPrevious };
    }
  }
}

/** Whether a custom range is one the API takes: days in order, at most 366 of them. */
export function isValidRange({ from, to }: DateRange): boolean {
  const start = dayMs(from);
  const end = dayMs(to);
  return Number.isFinite(start) && Number.isFinite(end) && start <= end && (end - start) / DAY_MS < 366;
}
