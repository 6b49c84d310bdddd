import { RiArrowLeftLine, RiBugLine, RiErrorWarningLine, RiMapPinLine } from "@remixicon/react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Callout, Card, Tab, TabGroup, TabList, TabPanel, TabPanels } from "@tremor/react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import { EnvironmentalTab } from "../../components/analytics/environmental-tab";
import { InvertersTab } from "../../components/analytics/inverters-tab";
import { recordName } from "../../components/analytics/metrics";
import { OverviewTab } from "../../components/analytics/overview-tab";
import { PerformanceTab } from "../../components/analytics/performance-tab";
import { RangeSelector } from "../../components/analytics/range-selector";
import { RecordStatusBadge } from "../../components/analytics/status-badge";
import { ButtonLink } from "../../components/ui/button-link";
import { EmptyState } from "../../components/ui/empty-state";
import { ExportButton } from "../../components/ui/export-button";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { useUserTimeZone } from "../../components/use-user-time-zone";
import { ApiRequestError } from "../../lib/api";
import { errorDescription } from "../../lib/error-messages";
import { formatCapacityKw, formatDateTime, localeFor } from "../../lib/format";
import { providerNames } from "../../lib/providers";
import {
  type AnalyticsRange,
  DETAIL_DEFAULT_RANGE,
  systemAnalyticsQueryOptions,
} from "../../lib/queries/analytics";

/** The detail reads its id from the last path segment. */
export function idFromPath(pathOrId: string): string {
  const segments = pathOrId.split("/").filter(Boolean);
  const last = segments[segments.length - 1] ?? "";
  try {
    return decodeURIComponent(last);
  } catch {
    // Already decoded by the router and holding a literal "%".
    return last;
  }
}

function BackButton() {
  const { t } = useTranslation();
  return (
    <ButtonLink to="/app/analytics" variant="secondary">
      <RiArrowLeftLine className="h-4 w-4" aria-hidden="true" />
      {t("analytics.back")}
    </ButtonLink>
  );
}

/** Site analytics detail: one system's KPIs and series over a chosen range, in four tabs. */
export function SiteAnalyticsPage({ siteId }: { siteId: string }) {
  const { t } = useTranslation();
  const systemId = idFromPath(siteId);
  const [range, setRange] = useState<AnalyticsRange>(DETAIL_DEFAULT_RANGE);
  const query = useQuery({
    ...systemAnalyticsQueryOptions(systemId, range),
    // The previous range stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
  const record = query.data?.[0];

  let body: ReactNode;
  if (query.isPending) {
    body = <Spinner className="py-16" />;
  } else if (query.isError && query.error instanceof ApiRequestError && query.error.status === 404) {
    body = (
      <EmptyState
        icon={RiMapPinLine}
        title={t("analytics.siteNotFoundTitle")}
        description={t("analytics.siteNotFoundBody", { siteId: systemId })}
      >
        <BackButton />
      </EmptyState>
    );
  } else if (query.isError) {
    const { error } = query;
    const message = errorDescription(error, t("errors.unknownError"));
    body = (
      <Callout title={t("insights.detail.apiError")} color="red" icon={RiErrorWarningLine} role="alert">
        <p className="break-words">{message}</p>
      </Callout>
    );
  } else if (!record) {
    body = (
      <Callout title={t("insights.detail.noSystemsTitle")} color="amber" icon={RiBugLine}>
        <p>{t("insights.detail.noSystemsBody")}</p>
        <pre className="mt-2 whitespace-pre-wrap break-all rounded-tremor-small bg-tremor-background-subtle p-2 text-tremor-label">
          {JSON.stringify({
            request: `/api/analytics?system=${systemId}&range=${range}`,
            records: query.data.length,
          })}
        </pre>
      </Callout>
    );
  } else {
    body = (
      <SystemDetail
        record={record}
        range={range}
        onRangeChange={setRange}
        refreshing={query.isPlaceholderData}
      />
    );
  }

  return (
    <>
      <PageHeader
        title={record ? recordName(record) : t("pages.siteAnalytics")}
        description={record ? undefined : t("analytics.subtitle")}
        actions={<BackButton />}
      />
      {body}
    </>
  );
}

interface SystemDetailProps {
  record: AnalyticsRecord;
  range: AnalyticsRange;
  onRangeChange: (range: AnalyticsRange) => void;
  refreshing: boolean;
}

function SystemDetail({ record, range, onRangeChange, refreshing }: SystemDetailProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const timeZone = useUserTimeZone();
  const [tab, setTab] = useState(0);
  return (
    <div className="space-y-6">
      <Card className="flex flex-wrap items-center justify-between gap-4">
        <dl className="flex flex-wrap gap-x-8 gap-y-2 text-tremor-default">
          <Fact label={t("insights.fields.provider")} value={providerNames[record.provider]} />
          {record.siteName ? <Fact label={t("insights.fields.site")} value={record.siteName} /> : null}
          <Fact label={t("insights.fields.capacity")} value={formatCapacityKw(record.capacity, locale)} />
          <Fact label={t("insights.fields.timeZone")} value={record.timezone} />
          <Fact
            label={t("insights.fields.dataTime")}
            value={
              record.lastUpdated
                ? formatDateTime(record.lastUpdated, { locale, timeZone })
                : t("insights.noDataYet")
            }
          />
          <div>
            <dt className="text-tremor-label text-tremor-content">{t("insights.fields.status")}</dt>
            <dd className="mt-0.5">
              <RecordStatusBadge status={record.status} />
            </dd>
          </div>
        </dl>
        <div className="flex items-center gap-3">
          {refreshing ? <Spinner label={t("insights.detail.updating")} /> : null}
          <RangeSelector value={range} onChange={onRangeChange} />
          <ExportButton
            path={`/analytics?system=${encodeURIComponent(record.systemId)}&range=${range}&series=power`}
            label={t("common.exportPower")}
          />
          <ExportButton
            path={`/analytics?system=${encodeURIComponent(record.systemId)}&range=${range}&series=energy`}
            label={t("common.exportEnergy")}
          />
        </div>
      </Card>
      {record.error ? (
        <Callout title={t("insights.detail.apiError")} color="red" icon={RiErrorWarningLine}>
          {record.error}
        </Callout>
      ) : null}
      {/* Tremor keeps every panel mounted; only the open tab's charts are rendered. */}
      <TabGroup index={tab} onIndexChange={setTab}>
        <TabList>
          <Tab>{t("insights.tabs.overview")}</Tab>
          <Tab>{t("insights.tabs.performance")}</Tab>
          <Tab>{t("insights.tabs.inverters")}</Tab>
          <Tab>{t("insights.tabs.environmental")}</Tab>
        </TabList>
        <TabPanels className="mt-6">
          <TabPanel>{tab === 0 ? <OverviewTab record={record} /> : null}</TabPanel>
          <TabPanel>{tab === 1 ? <PerformanceTab record={record} /> : null}</TabPanel>
          <TabPanel>{tab === 2 ? <InvertersTab record={record} /> : null}</TabPanel>
          <TabPanel>{tab === 3 ? <EnvironmentalTab record={record} /> : null}</TabPanel>
        </TabPanels>
      </TabGroup>
    </div>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-tremor-label text-tremor-content">{label}</dt>
      <dd className="font-medium text-tremor-content-strong">{value}</dd>
    </div>
  );
}
