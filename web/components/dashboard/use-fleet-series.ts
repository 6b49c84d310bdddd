import { useQueries } from "@tanstack/react-query";
import type { DashboardMetric } from "../../../schema/api/metrics";
import { type SystemSeries, systemSeriesQueryOptions } from "../../lib/queries/metrics";

/**
 * Series are read one system at a time (the API has no fleet series), so the chart and the
 * comparisons cover at most this many systems, the largest first; the screen says when it is fewer.
 */
export const MAX_SERIES_SYSTEMS = 24;

export interface FleetSeries {
  seriesBySystem: Map<string, SystemSeries>;
  /** The systems asked for (largest capacity first), at most MAX_SERIES_SYSTEMS. */
  coveredSystemIds: string[];
  pending: boolean;
  failed: number;
}

export function useFleetSeries(metrics: readonly DashboardMetric[]): FleetSeries {
  const covered = [...metrics]
    .sort((a, b) => b.capacity - a.capacity || a.systemId.localeCompare(b.systemId))
    .slice(0, MAX_SERIES_SYSTEMS)
    .map((metric) => metric.systemId);
  return useQueries({
    queries: covered.map((systemId) => systemSeriesQueryOptions(systemId)),
    combine: (results) => {
      const seriesBySystem = new Map<string, SystemSeries>();
      for (const result of results) if (result.data) seriesBySystem.set(result.data.systemId, result.data);
      return {
        seriesBySystem,
        coveredSystemIds: covered,
        pending: results.some((result) => result.isPending),
        failed: results.filter((result) => result.isError).length,
      };
    },
  });
}
