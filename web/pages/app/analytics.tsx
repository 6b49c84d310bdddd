import { RiBarChartBoxLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { FleetSummary } from "../../components/analytics/fleet-summary";
import { filterByProvider, type ProviderFilter } from "../../components/analytics/metrics";
import { ProviderFilterBar } from "../../components/analytics/provider-filter";
import { SystemCard } from "../../components/analytics/system-card";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { EmptyState } from "../../components/ui/empty-state";
import { ErrorState } from "../../components/ui/error-state";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { providerNames } from "../../lib/providers";
import { analyticsListQueryOptions } from "../../lib/queries/analytics";

/** Performance Analytics: every system with today's figures, filtered by provider. */
export function AnalyticsPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<ProviderFilter>("all");
  const list = useQuery(analyticsListQueryOptions());

  let body: ReactNode;
  if (list.isPending) {
    body = <Spinner className="py-16" />;
  } else if (list.isError) {
    body = (
      <ErrorState title={t("insights.list.loadFailed")} error={list.error} onRetry={() => list.refetch()} />
    );
  } else if (list.data.length === 0) {
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
    const shown = filterByProvider(list.data, filter);
    body = (
      <div className="space-y-6">
        <FleetSummary />
        <ProviderFilterBar records={list.data} value={filter} onChange={setFilter} />
        {shown.length === 0 ? (
          <p className="rounded-tremor-default border border-dashed border-tremor-border px-4 py-8 text-center text-tremor-default text-tremor-content">
            {t("insights.list.noneForProvider", { provider: filter === "all" ? "" : providerNames[filter] })}
          </p>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {shown.map((record) => (
              <li key={record.systemId}>
                <SystemCard record={record} />
              </li>
            ))}
          </ul>
        )}
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
