import { AreaChart, Card, Text, Title } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { DashboardMetric } from "../../../schema/api/metrics";
import type { ProviderId } from "../../../schema/api/providers";
import { formatPowerW, formatTime } from "../../lib/format";
import { providerNames } from "../../lib/providers";
import type { SystemSeries } from "../../lib/queries/metrics";
import { Spinner } from "../ui/spinner";
import { summaryProviders } from "./fleet";
import { generationByProvider } from "./generation-series";
import { localMidnightMs } from "./local-day";
import { formatHourMinute } from "./units";

const providerColours: Record<(typeof summaryProviders)[number], string> = {
  solis: "amber",
  sma: "blue",
  solax: "emerald",
  fronius: "violet",
};

interface GenerationChartProps {
  /** The systems counted in totals (meteronline excluded). */
  metrics: readonly DashboardMetric[];
  seriesBySystem: ReadonlyMap<string, SystemSeries>;
  coveredCount: number;
  pending: boolean;
  nowMs: number;
  locale: string;
  timeZone: string | undefined;
}

/** Today's power per provider, stacked, in 5-minute buckets since the viewer's midnight. */
export function GenerationChart({
  metrics,
  seriesBySystem,
  coveredCount,
  pending,
  nowMs,
  locale,
  timeZone,
}: GenerationChartProps) {
  const { t } = useTranslation();
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const providerOf = new Map(metrics.map((metric) => [metric.systemId, metric.provider]));
  const systems = [...seriesBySystem.values()].flatMap((series) => {
    const provider = providerOf.get(series.systemId);
    return provider ? [{ provider, power: series.power }] : [];
  });
  const points = generationByProvider(systems, localMidnightMs(nowMs, zone), nowMs);
  const providers = summaryProviders.filter((provider) => points.some((point) => provider in point.values));
  const data = points.map((point) => {
    const row: Record<string, string | number> = { time: formatHourMinute(point.time, locale, timeZone) };
    for (const provider of providers)
      row[providerNames[provider]] = point.values[provider as ProviderId] ?? 0;
    return row;
  });
  const last = points[points.length - 1];

  return (
    <Card className="flex flex-col">
      <Title>{t("fleet.chart.title")}</Title>
      <Text>{t("fleet.chart.subtitle")}</Text>
      {data.length > 0 ? (
        <AreaChart
          className="mt-4 h-72"
          data={data}
          index="time"
          categories={providers.map((provider) => providerNames[provider])}
          colors={providers.map((provider) => providerColours[provider])}
          valueFormatter={(value: number) => formatPowerW(value, locale)}
          stack
          yAxisWidth={88}
          showAnimation={false}
          connectNulls
        />
      ) : pending ? (
        <Spinner className="h-72" label={t("fleet.chart.loading")} />
      ) : (
        <div className="flex h-72 items-center justify-center text-tremor-default text-tremor-content">
          {t("fleet.chart.empty")}
        </div>
      )}
      <p className="mt-3 text-tremor-label text-tremor-content">
        {last ? t("fleet.chart.lastReading", { time: formatTime(last.time, { locale, timeZone }) }) : null}
        {coveredCount < metrics.length
          ? ` ${t("fleet.chart.partial", { shown: coveredCount, total: metrics.length })}`
          : null}
      </p>
    </Card>
  );
}
