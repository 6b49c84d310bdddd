import { RiBarChartBoxLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FleetSummary } from "../../components/analytics/fleet-summary";
import { filterByProvider, type ProviderFilter, providerFilters } from "../../components/analytics/metrics";
import { ProviderFilterBar } from "../../components/analytics/provider-filter";
import { SystemCard } from "../../components/analytics/system-card";
import { PlaceholderLinks } from "../../components/placeholder-links";
import {
  FilterSelect,
  ListToolbar,
  Pager,
  SearchBox,
  StatusChips,
} from "../../components/site-lists/list-controls";
import { EmptyState } from "../../components/ui/empty-state";
import { ErrorState } from "../../components/ui/error-state";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { formatCount, localeFor } from "../../lib/format";
import { useFleetListsStrings } from "../../lib/i18n/fleet-lists";
import { providerNames } from "../../lib/providers";
import {
  ANALYTICS_PER_PAGE,
  ANALYTICS_SORTS,
  ANALYTICS_STATUSES,
  type AnalyticsListSearch,
  analyticsCountsQueryOptions,
  analyticsPageQueryOptions,
} from "../../lib/queries/analytics";

const sortLabel = { pr: "pr", power: "power", today: "today", system: "name" } as const;

/**
 * Performance Analytics: the fleet's systems a page at a time with today's figures, worst PR
 * first unless ordered otherwise, searched and filtered by the server; what is shown lives in the
 * URL.
 */
export function AnalyticsPage({
  search,
  onSearch,
}: {
  search: AnalyticsListSearch;
  onSearch: (patch: Partial<AnalyticsListSearch>) => void;
}) {
  const { t, i18n } = useTranslation();
  useFleetListsStrings();
  const locale = localeFor(i18n.language);
  const list = useQuery(analyticsPageQueryOptions(search));
  const counts = useQuery(analyticsCountsQueryOptions(search, providerFilters)).data;
  const filter = (search.provider ?? "all") as ProviderFilter;
  const filtered = Boolean(search.q || search.provider || search.status);

  let body: ReactNode;
  if (list.isPending) {
    body = <Spinner className="py-16" />;
  } else if (list.isError) {
    body = (
      <ErrorState title={t("insights.list.loadFailed")} error={list.error} onRetry={() => list.refetch()} />
    );
  } else if (list.data.total === 0 && !filtered) {
    body = (
      <EmptyState
        icon={RiBarChartBoxLine}
        title={t("analytics.emptyTitle")}
        description={t("analytics.emptyBody")}
      >
        <PlaceholderLinks />
      </EmptyState>
    );
  } else {
    // The server filters; the page is filtered again only for an answer that did not.
    const shown = filterByProvider(list.data.items, filter);
    body = (
      <div className="space-y-6">
        <FleetSummary />
        <ListToolbar>
          <SearchBox
            value={search.q ?? ""}
            label={t("fleetLists.searchSystems")}
            onSearch={(q) => onSearch({ q: q || undefined })}
          />
          <FilterSelect
            label={t("fleetLists.sort")}
            value={search.sort ?? "pr"}
            options={ANALYTICS_SORTS.map((sort) => ({
              value: sort,
              label: t(`fleetLists.sorts.${sortLabel[sort]}`),
            }))}
            onChange={(sort) =>
              onSearch({ sort: sort === "pr" ? undefined : (sort as AnalyticsListSearch["sort"]) })
            }
          />
        </ListToolbar>
        <StatusChips
          statuses={ANALYTICS_STATUSES}
          counts={counts?.statuses}
          selected={search.status ? [search.status] : []}
          onToggle={(status) => onSearch({ status: search.status === status ? undefined : status })}
        />
        <ProviderFilterBar
          records={list.data.items}
          counts={counts ? { all: counts.all, providers: counts.providers } : undefined}
          value={filter}
          onChange={(provider) => onSearch({ provider: provider === "all" ? undefined : provider })}
        />
        <p className="text-tremor-default text-tremor-content" aria-live="polite">
          {t("fleetLists.matchingSystems", {
            count: list.data.total,
            formatted: formatCount(list.data.total, locale),
          })}
        </p>
        {shown.length === 0 ? (
          <p className="rounded-tremor-default border border-dashed border-tremor-border px-4 py-8 text-center text-tremor-default text-tremor-content">
            {filter !== "all" && !search.q && !search.status
              ? t("insights.list.noneForProvider", { provider: providerNames[filter] })
              : t("fleetLists.noSystemMatch")}
          </p>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-busy={list.isPlaceholderData}>
            {shown.map((record) => (
              <li key={record.systemId}>
                <SystemCard record={record} />
              </li>
            ))}
          </ul>
        )}
        <Pager
          page={search.page ?? 1}
          pageCount={Math.max(1, Math.ceil(list.data.total / ANALYTICS_PER_PAGE))}
          onPage={(page) => onSearch({ page: page > 1 ? page : undefined })}
        />
      </div>
    );
  }

  return (
    <>
      <PageHeader title={t("pages.analytics")} description={t("analytics.subtitle")} />
      {body}
    </>
  );
}
