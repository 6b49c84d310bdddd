import { Card, Title } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import {
  formatDateTime,
  formatEnergyWh,
  formatKwhPerKw,
  formatPercent,
  formatPowerW,
  formatRatio,
  localeFor,
} from "../../lib/format";
import { StatCard } from "../ui/stat-card";
import { useUserTimeZone } from "../use-user-time-zone";
import { PowerChart } from "./charts";
import { capacityFactorPercent, energyYieldKwhPerKw, shownEfficiency, shownPowerW } from "./metrics";

/** The KPIs (power, today's energy, efficiency) from the record's current values and today's energy, then the power curve over the range. */
export function OverviewTab({ record }: { record: AnalyticsRecord }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const timeZone = useUserTimeZone();
  const asOf = record.lastUpdated
    ? t("insights.dataAsOf", { time: formatDateTime(record.lastUpdated, { locale, timeZone }) })
    : t("insights.noDataYet");
  const today = t("insights.detail.todayAt", { timeZone: record.timezone });
  const range = record.series?.range ?? "7d";
  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <StatCard
          label={t("insights.fields.currentPower")}
          value={formatPowerW(shownPowerW(record), locale)}
          footnote={asOf}
        />
        <StatCard
          label={t("insights.fields.todayEnergy")}
          value={formatEnergyWh(record.todayGenerationWh, locale)}
          footnote={today}
        />
        <StatCard
          label={t("insights.fields.efficiency")}
          value={formatPercent(shownEfficiency(record), locale)}
          footnote={t("insights.detail.efficiencyHint")}
        />
        <StatCard
          label={t("insights.fields.capacityFactor")}
          value={formatPercent(capacityFactorPercent(record.todayGenerationWh, record.capacity), locale)}
          footnote={t("insights.detail.capacityFactorHint")}
        />
        <StatCard
          label={t("insights.fields.energyYield")}
          value={formatKwhPerKw(energyYieldKwhPerKw(record.todayGenerationWh, record.capacity), locale)}
          footnote={t("insights.detail.energyYieldHint")}
        />
        <StatCard
          label={t("insights.fields.performanceRatio")}
          value={formatRatio(record.performanceRatio, locale)}
          footnote={t("insights.detail.prHint")}
        />
      </div>
      <Card>
        <Title>{t(range === "1y" ? "insights.detail.peakPowerTitle" : "insights.detail.powerTitle")}</Title>
        <p className="text-tremor-label text-tremor-content">
          {t(`insights.detail.powerResolution.${range}`)} ·{" "}
          {t("insights.detail.siteClock", { timeZone: record.timezone })}
        </p>
        <PowerChart
          className="mt-4 h-72"
          power={record.series?.power ?? []}
          range={range}
          timeZone={record.timezone}
        />
      </Card>
    </div>
  );
}
