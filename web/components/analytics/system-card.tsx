import { Link } from "@tanstack/react-router";
import { Card } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import {
  formatCapacityKw,
  formatDateTime,
  formatEnergyWh,
  formatPercent,
  formatPowerW,
  formatRatio,
  localeFor,
} from "../../lib/format";
import { providerNames } from "../../lib/providers";
import { useUserTimeZone } from "../use-user-time-zone";
import { recordName, shownEfficiency, shownPowerW } from "./metrics";
import { RecordStatusBadge } from "./status-badge";

/** One system of the Performance Analytics list; the whole card opens its detail. */
export function SystemCard({ record }: { record: AnalyticsRecord }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const timeZone = useUserTimeZone();
  const headingId = `analytics-${record.systemId}-name`;
  const name = recordName(record);
  return (
    <Link
      to="/app/analytics/$siteId"
      params={{ siteId: record.systemId }}
      aria-labelledby={headingId}
      className="group block rounded-tremor-default outline-none focus-visible:ring-2 focus-visible:ring-tremor-brand-muted"
    >
      <Card className="flex h-full flex-col gap-4 transition-shadow group-hover:shadow-tremor-dropdown">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <h2
              id={headingId}
              className="break-words text-tremor-title font-semibold text-tremor-content-strong"
            >
              {name}
            </h2>
            <p className="mt-1 text-tremor-label text-tremor-content">
              {providerNames[record.provider]}
              {record.siteName && record.siteName !== name ? ` · ${record.siteName}` : ""}
            </p>
          </div>
          <RecordStatusBadge status={record.status} />
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-tremor-default">
          <Figure label={t("insights.fields.capacity")} value={formatCapacityKw(record.capacity, locale)} />
          <Figure
            label={t("insights.fields.currentPower")}
            value={formatPowerW(shownPowerW(record), locale)}
          />
          <Figure
            label={t("insights.fields.todayEnergy")}
            value={formatEnergyWh(record.todayGenerationWh, locale)}
          />
          <Figure
            label={t("insights.fields.efficiencyPr")}
            value={`${formatPercent(shownEfficiency(record), locale)} · ${t(
              "insights.fields.prShort",
            )} ${formatRatio(record.performanceRatio, locale)}`}
          />
        </dl>
        <p className="mt-auto border-t border-tremor-border pt-3 text-tremor-label text-tremor-content">
          {record.lastUpdated
            ? t("insights.dataAsOf", { time: formatDateTime(record.lastUpdated, { locale, timeZone }) })
            : t("insights.noDataYet")}
          {" · "}
          {t("insights.list.inverters", { count: record.inverterCount })}
        </p>
      </Card>
    </Link>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-tremor-label text-tremor-content">{label}</dt>
      <dd className="font-medium text-tremor-content-strong">{value}</dd>
    </div>
  );
}
