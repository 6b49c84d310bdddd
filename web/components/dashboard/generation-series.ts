import type { DashboardMetric } from "../../../schema/api/metrics";
import type { ProviderId } from "../../../schema/api/providers";
import type { PowerPoint, SystemSeries } from "../../lib/queries/metrics";
import { localDate, localMidnightMs } from "./local-day";

export const BUCKET_MS = 5 * 60_000;
/** Readings further apart than this are a gap, not a straight line of production. */
const MAX_GAP_MS = 15 * 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface ProviderPoint {
  /** Start of the 5-minute bucket (epoch ms). */
  time: number;
  /** W per provider; absent when none of its systems reported in the bucket. */
  values: Partial<Record<ProviderId, number>>;
}

/**
 * Today's generation by provider: each system's readings averaged per 5-minute bucket, then
 * summed per provider. Buckets start at `fromMs` (the viewer's midnight) and end at `toMs`.
 */
export function generationByProvider(
  systems: readonly { provider: ProviderId; power: readonly PowerPoint[] }[],
  fromMs: number,
  toMs: number,
): ProviderPoint[] {
  const buckets = new Map<number, Partial<Record<ProviderId, number>>>();
  for (const system of systems) {
    const sums = new Map<number, { total: number; count: number }>();
    for (const point of system.power) {
      const time = Date.parse(point.time);
      if (point.powerW === null || !Number.isFinite(time) || time < fromMs || time > toMs) continue;
      const bucket = Math.floor(time / BUCKET_MS) * BUCKET_MS;
      const sum = sums.get(bucket) ?? { total: 0, count: 0 };
      sum.total += point.powerW;
      sum.count += 1;
      sums.set(bucket, sum);
    }
    for (const [bucket, { total, count }] of sums) {
      const values = buckets.get(bucket) ?? {};
      values[system.provider] = (values[system.provider] ?? 0) + total / count;
      buckets.set(bucket, values);
    }
  }
  return [...buckets.entries()].sort(([a], [b]) => a - b).map(([time, values]) => ({ time, values }));
}

/** Energy (Wh) from power readings between two instants, by the trapezoid rule, gaps left out. */
export function energyBetweenWh(power: readonly PowerPoint[], fromMs: number, toMs: number): number {
  const points = power
    .map((point) => ({ time: Date.parse(point.time), powerW: point.powerW }))
    .filter(
      (point): point is { time: number; powerW: number } =>
        point.powerW !== null && Number.isFinite(point.time),
    )
    .sort((a, b) => a.time - b.time);
  let energyWh = 0;
  for (let index = 1; index < points.length; index += 1) {
    const previous = points[index - 1] as { time: number; powerW: number };
    const current = points[index] as { time: number; powerW: number };
    if (current.time - previous.time > MAX_GAP_MS) continue;
    const start = Math.max(previous.time, fromMs);
    const end = Math.min(current.time, toMs);
    if (end <= start) continue;
    const slope = (current.powerW - previous.powerW) / (current.time - previous.time);
    const powerAt = (time: number) => previous.powerW + slope * (time - previous.time);
    energyWh += ((powerAt(start) + powerAt(end)) / 2) * ((end - start) / HOUR_MS);
  }
  return energyWh;
}

/**
 * What the system had generated yesterday by this time of day, in its own zone: yesterday's
 * stored energy minus what its readings show for the rest of yesterday (the last 24 hours
 * start exactly at this time yesterday). Null when yesterday's energy is not known.
 */
export function yesterdaySameTimeWh(series: SystemSeries, timeZone: string, nowMs: number): number | null {
  const todayStart = localMidnightMs(nowMs, timeZone);
  const yesterday = localDate(todayStart - 1, timeZone);
  const entry = series.energy.find((day) => day.date === yesterday);
  if (!entry || entry.energyWh === null) return null;
  const restOfYesterdayWh = energyBetweenWh(series.power, nowMs - DAY_MS, todayStart);
  return Math.max(0, entry.energyWh - restOfYesterdayWh);
}

export interface GenerationChange {
  todayWh: number;
  yesterdayWh: number;
  /** Percent change of today over yesterday by the same time. */
  changePercent: number;
  /** How many systems the comparison covers (those with yesterday's data). */
  systemCount: number;
}

/** Today against the same time yesterday, over the systems whose yesterday is known. */
export function generationChange(
  metrics: readonly DashboardMetric[],
  seriesBySystem: ReadonlyMap<string, SystemSeries>,
  nowMs: number,
): GenerationChange | null {
  let todayWh = 0;
  let yesterdayWh = 0;
  let systemCount = 0;
  for (const metric of metrics) {
    const series = seriesBySystem.get(metric.systemId);
    if (!series) continue;
    const before = yesterdaySameTimeWh(series, metric.timezone, nowMs);
    if (before === null) continue;
    todayWh += metric.todayGenerationWh;
    yesterdayWh += before;
    systemCount += 1;
  }
  if (systemCount === 0 || yesterdayWh <= 0) return null;
  return { todayWh, yesterdayWh, changePercent: ((todayWh - yesterdayWh) / yesterdayWh) * 100, systemCount };
}

/** Yesterday's fleet performance ratio from the stored daily energies and expectations. */
export function yesterdayPerformanceRatio(
  metrics: readonly DashboardMetric[],
  seriesBySystem: ReadonlyMap<string, SystemSeries>,
  nowMs: number,
): number | null {
  let actualWh = 0;
  let expectedWh = 0;
  for (const metric of metrics) {
    const series = seriesBySystem.get(metric.systemId);
    if (!series) continue;
    const yesterday = localDate(localMidnightMs(nowMs, metric.timezone) - 1, metric.timezone);
    const entry = series.energy.find((day) => day.date === yesterday);
    if (!entry || entry.energyWh === null || entry.expectedWh === null || entry.expectedWh <= 0) continue;
    actualWh += entry.energyWh;
    expectedWh += entry.expectedWh;
  }
  return expectedWh > 0 ? actualWh / expectedWh : null;
}
