import { RiArrowDownSLine, RiArrowUpSLine, RiExpandUpDownLine } from "@remixicon/react";
import { Card, Title } from "@tremor/react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { DashboardMetric } from "../../../schema/api/metrics";
import {
  formatCount,
  formatDateTime,
  formatEnergyWh,
  formatPercent,
  formatPowerW,
  formatRatio,
  formatTime,
} from "../../lib/format";
import { providerNames } from "../../lib/providers";
import { ExportButton } from "../ui/export-button";
import {
  hasCapacity,
  inverterCounts,
  type SortDirection,
  type SystemSortKey,
  sortSystems,
  systemName,
} from "./fleet";
import { SystemStatusBadge } from "./system-status-badge";

interface Column {
  key: SystemSortKey;
  label: "system" | "provider" | "power" | "today" | "status" | "inverters" | "efficiency";
  align?: "right";
}

const columns: Column[] = [
  { key: "system", label: "system" },
  { key: "provider", label: "provider" },
  { key: "power", label: "power", align: "right" },
  { key: "today", label: "today", align: "right" },
  { key: "status", label: "status" },
  { key: "inverters", label: "inverters", align: "right" },
  { key: "pr", label: "efficiency", align: "right" },
];

/** Rows rendered at once: a fleet of thousands is paged rather than put in the page whole. */
const ROWS_PER_PAGE = 50;

/** Worst first by performance ratio unless the reader picks another order. */
const DEFAULT_SORT = { key: "pr", direction: "asc" } as const satisfies {
  key: SystemSortKey;
  direction: SortDirection;
};

export function SystemPerformanceTable({
  metrics,
  locale,
  timeZone,
}: {
  metrics: readonly DashboardMetric[];
  locale: string;
  timeZone: string | undefined;
}) {
  const { t } = useTranslation();
  const [sort, setSort] = useState<{ key: SystemSortKey; direction: SortDirection }>(DEFAULT_SORT);
  const [query, setQuery] = useState("");
  const [page, setPage] = useState(0);
  const matching = useMemo(() => {
    const sorted = sortSystems(metrics, sort.key, sort.direction);
    const needle = query.trim().toLocaleLowerCase(locale);
    return needle ? sorted.filter((metric) => matches(metric, needle, locale)) : sorted;
  }, [metrics, sort, query, locale]);
  // A fleet of thousands is shown a page at a time; the page stays in range as the fleet changes.
  const pageCount = Math.max(1, Math.ceil(matching.length / ROWS_PER_PAGE));
  const shownPage = Math.min(page, pageCount - 1);
  const rows = matching.slice(shownPage * ROWS_PER_PAGE, (shownPage + 1) * ROWS_PER_PAGE);
  const time = (value: string) => formatTime(value, { locale, timeZone });

  const onSort = (key: SystemSortKey) => {
    setPage(0);
    setSort((current) =>
      current.key === key
        ? { key, direction: current.direction === "asc" ? "desc" : "asc" }
        : { key, direction: key === "system" || key === "provider" || key === "pr" ? "asc" : "desc" },
    );
  };

  return (
    <Card>
      <div className="flex items-center justify-between gap-2">
        <Title>{t("fleet.table.title")}</Title>
        <div className="flex items-center gap-2">
          {metrics.length > ROWS_PER_PAGE ? (
            <input
              type="search"
              value={query}
              onChange={(event) => {
                setQuery(event.target.value);
                setPage(0);
              }}
              placeholder={t("fleet.table.search")}
              aria-label={t("fleet.table.search")}
              className="rounded-tremor-default border border-tremor-border px-3 py-1.5 text-tremor-default"
            />
          ) : null}
          <ExportButton path="/dashboard/metrics" />
        </div>
      </div>
      <div className="mt-4 overflow-x-auto">
        <table className="w-full min-w-[56rem] text-left text-tremor-default">
          <caption className="sr-only">{t("fleet.table.caption")}</caption>
          <thead>
            <tr className="border-b border-tremor-border text-tremor-content">
              {columns.map((column) => {
                const active = sort.key === column.key;
                const SortIcon = !active
                  ? RiExpandUpDownLine
                  : sort.direction === "asc"
                    ? RiArrowUpSLine
                    : RiArrowDownSLine;
                return (
                  <th
                    key={column.key}
                    scope="col"
                    aria-sort={active ? (sort.direction === "asc" ? "ascending" : "descending") : "none"}
                    className={`whitespace-nowrap px-3 py-2 font-semibold ${column.align === "right" ? "text-right" : ""}`}
                  >
                    <button
                      type="button"
                      onClick={() => onSort(column.key)}
                      className="inline-flex items-center gap-1 hover:text-tremor-content-strong"
                    >
                      {t(`fleet.table.columns.${column.label}`)}
                      <SortIcon className="h-4 w-4" aria-hidden="true" />
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rows.map((metric) => {
              const inverters = inverterCounts(metric);
              return (
                <tr key={metric.systemId} className="border-b border-tremor-border last:border-0">
                  <th scope="row" className="px-3 py-3 font-medium text-tremor-content-strong">
                    {systemName(metric)}
                    {/* A site made from this one plant carries its name: said once. */}
                    {metric.siteName && metric.siteName !== systemName(metric) ? (
                      <span className="block text-tremor-label font-normal text-tremor-content">
                        {metric.siteName}
                      </span>
                    ) : null}
                  </th>
                  <td className="px-3 py-3 text-tremor-content-emphasis">{providerNames[metric.provider]}</td>
                  <td className="whitespace-nowrap px-3 py-3 text-right">
                    {metric.stale ? (
                      <>
                        <span className="font-medium text-orange-700">{t("fleet.status.stale")}</span>
                        <span className="block text-tremor-label text-tremor-content">
                          {metric.dataTime
                            ? t("fleet.table.lastData", {
                                time: formatTimeOrDate(metric.dataTime, locale, timeZone),
                              })
                            : t("fleet.table.noData")}
                        </span>
                      </>
                    ) : (
                      <>
                        <span className="font-medium text-tremor-content-strong">
                          {formatPowerW(metric.currentPowerW, locale)}
                        </span>
                        {metric.dataTime ? (
                          <span className="block text-tremor-label text-tremor-content">
                            {t("fleet.asOf", { time: time(metric.dataTime) })}
                          </span>
                        ) : null}
                      </>
                    )}
                  </td>
                  <td className="whitespace-nowrap px-3 py-3 text-right text-tremor-content-strong">
                    {formatEnergyWh(metric.todayGenerationWh, locale)}
                  </td>
                  <td className="px-3 py-3">
                    <SystemStatusBadge status={metric.status} />
                  </td>
                  <td className="whitespace-nowrap px-3 py-3 text-right text-tremor-content-emphasis">
                    {inverters.total === 0
                      ? "—"
                      : t("fleet.table.invertersOnline", {
                          online: inverters.online,
                          total: inverters.total,
                        })}
                  </td>
                  <td className="whitespace-nowrap px-3 py-3 text-right">
                    <span className="text-tremor-content-strong">
                      {formatPercent(hasCapacity(metric) ? metric.efficiency : null, locale)}
                    </span>
                    <span className="block text-tremor-label text-tremor-content">
                      {t("fleet.cards.pr", { value: formatRatio(metric.performanceRatio, locale) })}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {matching.length === 0 && query ? (
          <p className="px-3 py-4 text-tremor-content">{t("fleet.table.noMatch", { query: query.trim() })}</p>
        ) : null}
      </div>
      {matching.length > ROWS_PER_PAGE ? (
        <nav className="mt-3 flex items-center justify-end gap-3 text-tremor-default text-tremor-content">
          <span>
            {t("fleet.table.shown", {
              from: formatCount(shownPage * ROWS_PER_PAGE + 1, locale),
              to: formatCount(shownPage * ROWS_PER_PAGE + rows.length, locale),
              total: formatCount(matching.length, locale),
            })}
          </span>
          <button
            type="button"
            disabled={shownPage === 0}
            onClick={() => setPage(shownPage - 1)}
            className="rounded-tremor-default border border-tremor-border px-3 py-1 disabled:opacity-40"
          >
            {t("fleet.table.previous")}
          </button>
          <button
            type="button"
            disabled={shownPage >= pageCount - 1}
            onClick={() => setPage(shownPage + 1)}
            className="rounded-tremor-default border border-tremor-border px-3 py-1 disabled:opacity-40"
          >
            {t("fleet.table.next")}
          </button>
        </nav>
      ) : null}
    </Card>
  );
}

/** A system is found by its name, its site's name or the vendor's id for it. */
function matches(metric: DashboardMetric, needle: string, locale: string): boolean {
  return [systemName(metric), metric.siteName ?? "", metric.providerId].some((text) =>
    text.toLocaleLowerCase(locale).includes(needle),
  );
}

/** Today's data shows its time; older data its date and time. */
function formatTimeOrDate(value: string, locale: string, timeZone: string | undefined): string {
  const ageMs = Date.now() - Date.parse(value);
  return ageMs < 12 * 3_600_000
    ? formatTime(value, { locale, timeZone })
    : formatDateTime(value, { locale, timeZone });
}
