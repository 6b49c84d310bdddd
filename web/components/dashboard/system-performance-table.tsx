import { RiArrowDownSLine, RiArrowUpSLine, RiExpandUpDownLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Card, Title } from "@tremor/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { SortDirection, SystemSortKey } from "../../../schema/api/dashboard";
import { hasCapacity, inverterCounts, systemName } from "../../../schema/api/metrics";
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
import { systemsPageQueryOptions } from "../../lib/queries/dashboard";
import { useDebouncedValue } from "../sites/use-debounced-value";
import { ErrorState } from "../ui/error-state";
import { ExportButton } from "../ui/export-button";
import { Spinner } from "../ui/spinner";
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

/** Rows per page: a fleet of thousands is read and shown a page at a time. */
const ROWS_PER_PAGE = 50;
/** Typing pauses this long before the search is sent. */
const SEARCH_DELAY_MS = 250;

/** Worst first by performance ratio unless the reader picks another order. */
const DEFAULT_SORT = { key: "pr", direction: "asc" } as const satisfies {
  key: SystemSortKey;
  direction: SortDirection;
};

/** The fleet's systems a page at a time, searched and sorted by the API. */
export function SystemPerformanceTable({
  systemCount,
  locale,
  timeZone,
}: {
  /** Systems in the fleet (the summary's count): the search is offered from more than one page. */
  systemCount: number;
  locale: string;
  timeZone: string | undefined;
}) {
  const { t } = useTranslation();
  const [sort, setSort] = useState<{ key: SystemSortKey; direction: SortDirection }>(DEFAULT_SORT);
  const [query, setQuery] = useState("");
  const [page, setPage] = useState(0);
  const search = useDebouncedValue(query.trim(), SEARCH_DELAY_MS);
  const pageQuery = useQuery(
    systemsPageQueryOptions({
      page: page + 1,
      pageSize: ROWS_PER_PAGE,
      q: search,
      sort: sort.key,
      direction: sort.direction,
    }),
  );
  const total = pageQuery.data?.total ?? 0;
  const rows = pageQuery.data?.items ?? [];
  // The page stays in range as the fleet or the search changes.
  const pageCount = Math.max(1, Math.ceil(total / ROWS_PER_PAGE));
  const shownPage = pageQuery.data ? pageQuery.data.page - 1 : page;
  useEffect(() => {
    if (pageQuery.data && !pageQuery.isPlaceholderData && page > pageCount - 1) setPage(pageCount - 1);
  }, [pageQuery.data, pageQuery.isPlaceholderData, page, pageCount]);
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
          {systemCount > ROWS_PER_PAGE ? (
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
                    {/* Stale or reported offline: its last value is not output now; when it last spoke is. */}
                    {metric.stale || metric.status === "offline" ? (
                      <>
                        <span
                          className={
                            metric.stale ? "font-medium text-orange-700" : "font-medium text-tremor-content"
                          }
                        >
                          {metric.stale ? t("fleet.status.stale") : "—"}
                        </span>
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
        {pageQuery.isPending ? <Spinner className="py-6" /> : null}
        {pageQuery.isError && !pageQuery.data ? (
          <ErrorState
            title={t("fleet.loadFailed")}
            error={pageQuery.error}
            onRetry={() => void pageQuery.refetch()}
          />
        ) : null}
        {pageQuery.data && total === 0 && search ? (
          <p className="px-3 py-4 text-tremor-content">{t("fleet.table.noMatch", { query: search })}</p>
        ) : null}
      </div>
      {total > ROWS_PER_PAGE ? (
        <nav className="mt-3 flex items-center justify-end gap-3 text-tremor-default text-tremor-content">
          <span>
            {t("fleet.table.shown", {
              from: formatCount(shownPage * ROWS_PER_PAGE + 1, locale),
              to: formatCount(shownPage * ROWS_PER_PAGE + rows.length, locale),
              total: formatCount(total, locale),
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

/** Today's data shows its time; older data its date and time. */
function formatTimeOrDate(value: string, locale: string, timeZone: string | undefined): string {
  const ageMs = Date.now() - Date.parse(value);
  return ageMs < 12 * 3_600_000
    ? formatTime(value, { locale, timeZone })
    : formatDateTime(value, { locale, timeZone });
}
