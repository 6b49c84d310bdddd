import type { UseQueryResult } from "@tanstack/react-query";
import { AreaChart, Card, Text, Title } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { FleetSeries } from "../../../schema/api/fleet-series";
import { formatPowerW, formatTime } from "../../lib/format";
import { providerChartColours, providerNames } from "../../lib/providers";
import { ErrorState } from "../ui/error-state";
import { Spinner } from "../ui/spinner";
import { generationChartData } from "./generation-series";

interface GenerationChartProps {
  query: Pick<UseQueryResult<FleetSeries, unknown>, "data" | "isPending" | "error" | "refetch">;
  locale: string;
  timeZone: string | undefined;
}

/** Today's power per provider for the whole fleet, stacked, in hours since the viewer's midnight. */
export function GenerationChart({ query, locale, timeZone }: GenerationChartProps) {
  const { t } = useTranslation();
  const series = query.data;
  const { providers, rows } = series
    ? generationChartData(series, locale, timeZone)
    : { providers: [], rows: [] };

  return (
    <Card className="flex flex-col">
      <Title>{t("fleet.chart.title")}</Title>
      <Text>{t("fleet.chart.subtitle")}</Text>
      {series === undefined ? (
        query.isPending ? (
          <Spinner className="h-72" label={t("fleet.chart.loading")} />
        ) : (
          <div className="mt-4">
            <ErrorState
              title={t("fleet.chart.failed")}
              error={query.error}
              onRetry={() => void query.refetch()}
            />
          </div>
        )
      ) : providers.length > 0 ? (
        <AreaChart
          className="mt-4 h-72"
          data={rows}
          index="time"
          categories={providers.map((provider) => providerNames[provider])}
          colors={providers.map((provider) => providerChartColours[provider])}
          valueFormatter={(value: number) => formatPowerW(value, locale)}
          stack
          yAxisWidth={88}
          showAnimation={false}
          connectNulls={false}
        />
      ) : (
        <div className="flex h-72 items-center justify-center text-tremor-default text-tremor-content">
          {t("fleet.chart.empty")}
        </div>
      )}
      {series ? (
        <p className="mt-3 text-tremor-label text-tremor-content">
          {t("fleet.chart.updated", { time: formatTime(series.generatedAt, { locale, timeZone }) })}
        </p>
      ) : null}
    </Card>
  );
}
