import { queryOptions } from "@tanstack/react-query";
import { api } from "../api";
import type { DateRange, LossBreakdown, LossCategory } from "../losses";

/** One plant-local day of `GET /api/losses`, energy in kWh. */
export interface LossesDay {
  date: string;
  expectedKwh: number;
  actualKwh: number;
  lostValue: number | null;
  losses: LossBreakdown;
}

/** `GET /api/losses`: a site's, system's, portfolio's or the whole fleet's losses over a range. */
export interface LossesReport {
  /** ISO 4217; null when no price is set for the scope. */
  currency: string | null;
  from: string;
  to: string;
  totals: {
    expectedKwh: number;
    actualKwh: number;
    revenue: number | null;
    lostValue: number | null;
    /** Expected under a clear sky less expected: the weather's share, beside the losses. */
    weatherKwh: number;
    losses: LossBreakdown;
  };
  days: LossesDay[];
}

export interface RankedSite {
  siteId: string;
  name: string;
  lostValue: number | null;
  lostKwh: number;
  mainCause: LossCategory | null;
}

/** `GET /api/losses/ranking`: sites worst-first by lost value. */
export interface LossRanking {
  currency: string | null;
  sites: RankedSite[];
}

export type LossScope = { siteId: string } | { systemId: string } | { portfolioId: string } | { fleet: true };

export const rankingDays = [7, 30] as const;
export type RankingDays = (typeof rankingDays)[number];

const scopeParams = (scope: LossScope): Record<string, string> =>
  "siteId" in scope
    ? { siteId: scope.siteId }
    : "systemId" in scope
      ? { systemId: scope.systemId }
      : "portfolioId" in scope
        ? { portfolioId: scope.portfolioId }
        : {};

/** The path of a scope's losses over a range (the CSV export adds format=csv to it). */
export function lossesPath(scope: LossScope, range: DateRange): string {
  const params = new URLSearchParams({ ...scopeParams(scope), from: range.from, to: range.to });
  return `/losses?${params.toString()}`;
}

/** Losses change with every sync; under ['losses'] so tariff changes refresh their values. */
export const lossKeys = {
  all: ["losses"] as const,
  report: (scope: LossScope, range: DateRange) =>
    [...lossKeys.all, "report", scopeParams(scope), range] as const,
  ranking: (days: RankingDays) => [...lossKeys.all, "ranking", days] as const,
};

export const lossesQueryOptions = (scope: LossScope, range: DateRange) =>
  queryOptions({
    queryKey: lossKeys.report(scope, range),
    queryFn: ({ signal }) => api.get<LossesReport>(lossesPath(scope, range), { signal }),
  });

export const lossRankingQueryOptions = (days: RankingDays) =>
  queryOptions({
    queryKey: lossKeys.ranking(days),
    queryFn: ({ signal }) => api.get<LossRanking>(`/losses/ranking?days=${days}`, { signal }),
  });
