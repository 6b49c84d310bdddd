import { queryOptions } from "@tanstack/react-query";
import { type ApiAnswer, api, routeUrl } from "../api";
import type { DateRange } from "../losses";

/** `GET /api/losses`: a site's, system's, portfolio's or the whole fleet's losses over a range. */
export type LossesReport = ApiAnswer<"GET", "/losses">;
/** One plant-local day of it, energy in kWh. */
export type LossesDay = LossesReport["days"][number];

/** `GET /api/losses/ranking`: sites worst-first by lost value. */
export type LossRanking = ApiAnswer<"GET", "/losses/ranking">;
export type RankedSite = LossRanking["sites"][number];

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

const lossesQuery = (scope: LossScope, range: DateRange) => ({
  ...scopeParams(scope),
  from: range.from,
  to: range.to,
});

/** The path of a scope's losses over a range (the CSV export adds format=csv to it). */
export function lossesPath(scope: LossScope, range: DateRange): string {
  return routeUrl("/losses", {}, lossesQuery(scope, range));
}

/** Losses change with every sync; under ['losses'] so tariff changes refresh their values. */
export const lossKeys = {
  all: ["losses"] as const,
  report: (scope: LossScope, range: DateRange) =>
    [...lossKeys.all, "report", scopeParams(scope), range] as const,
  ranking: (days: RankingDays, page: number) => [...lossKeys.all, "ranking", days, page] as const,
};

export const lossesQueryOptions = (scope: LossScope, range: DateRange) =>
  queryOptions({
    queryKey: lossKeys.report(scope, range),
    queryFn: ({ signal }) => api.get("/losses", { query: lossesQuery(scope, range), signal }),
  });

/** Sites on a page of the Losses screen's ranking. */
export const RANKING_PAGE_SIZE = 50;

export const lossRankingQueryOptions = (days: RankingDays, page: number) =>
  queryOptions({
    queryKey: lossKeys.ranking(days, page),
    queryFn: ({ signal }) =>
      api.get("/losses/ranking", { query: { days, page, pageSize: RANKING_PAGE_SIZE }, signal }),
  });
