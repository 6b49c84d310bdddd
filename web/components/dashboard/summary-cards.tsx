import { BadgeDelta } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { FleetTotals, SiteCounts } from "../../../schema/api/dashboard";
import type { FleetSeries } from "../../../schema/api/fleet-series";
import type { CurrentWeather } from "../../../schema/api/weather";
import {
  formatCount,
  formatEnergyWh,
  formatIrradiance,
  formatPercent,
  formatRatio,
  formatSignedDecimal,
  formatSignedPercent,
  formatTime,
} from "../../lib/format";
import { weatherImpact } from "../weather/labels";
import { SummaryCard } from "./summary-card";

interface SummaryCardsProps {
  totals: FleetTotals;
  /** The API's count of active sites of all sites; null when the summary is the fallback's (no sites). */
  sites: SiteCounts | null;
  /** The fleet series' comparisons: undefined while they load, null when they could not be read. */
  series: Pick<FleetSeries, "today" | "performance"> | null | undefined;
  weather: CurrentWeather | undefined;
  locale: string;
  timeZone: string | undefined;
}

const deltaType = (delta: number) =>
  delta > 0.05 ? "moderateIncrease" : delta < -0.05 ? "moderateDecrease" : "unchanged";

export function SummaryCards({ totals, sites, series, weather, locale, timeZone }: SummaryCardsProps) {
  const { t } = useTranslation();
  const time = (value: number | string) => formatTime(value, { locale, timeZone });
  const asOf =
    totals.dataTime === null ? t("fleet.cards.noDataYet") : t("fleet.asOf", { time: time(totals.dataTime) });
  const change = series?.today.changePct ?? null;
  const medianPr = series?.performance.medianPr7d ?? null;
  // Against the PR the card shows (live with the metrics), so the badge is their visible difference.
  const prPoints =
    totals.performanceRatio !== null && medianPr !== null ? (totals.performanceRatio - medianPr) * 100 : null;
  const impact = weather ? weatherImpact(weather) : null;

  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <SummaryCard
        label={t("fleet.cards.generationToday")}
        value={formatEnergyWh(totals.todayWh, locale)}
        indicator={
          change !== null ? (
            <BadgeDelta deltaType={deltaType(change)} size="xs">
              {formatSignedPercent(change, locale)}
            </BadgeDelta>
          ) : null
        }
        footnote={
          <>
            {series === undefined
              ? t("fleet.cards.comparing")
              : series === null
                ? t("fleet.cards.comparisonFailed")
                : change !== null
                  ? t("fleet.cards.vsYesterday", {
                      energy: formatEnergyWh(series.today.yesterdaySameTimeWh, locale),
                    })
                  : t("fleet.cards.noYesterday")}
            <br />
            {asOf}
          </>
        }
      />
      <SummaryCard
        label={t("fleet.cards.activeSites")}
        value={
          sites
            ? t("fleet.cards.ofTotal", {
                active: formatCount(sites.activeCount, locale),
                total: formatCount(sites.count, locale),
              })
            : "—"
        }
        footnote={
          <>
            {t("fleet.cards.activeSitesHint")}
            <br />
            {t("fleet.cards.systemsMonitored", { systems: formatCount(totals.systemCount, locale) })}
          </>
        }
      />
      <SummaryCard
        label={t("fleet.cards.efficiency")}
        value={formatPercent(totals.meanEfficiencyPercent, locale)}
        aside={
          <span className="text-tremor-default text-tremor-content-emphasis">
            {t("fleet.cards.pr", { value: formatRatio(totals.performanceRatio, locale) })}
          </span>
        }
        indicator={
          prPoints !== null ? (
            <BadgeDelta deltaType={deltaType(prPoints)} size="xs">
              {t("fleet.cards.points", { value: formatSignedDecimal(prPoints, locale) })}
            </BadgeDelta>
          ) : null
        }
        footnote={
          <>
            {medianPr !== null
              ? t("fleet.cards.prVsMedian", { value: formatRatio(medianPr, locale) })
              : t("fleet.cards.efficiencyHint")}
            <br />
            {asOf}
          </>
        }
      />
      <SummaryCard
        label={t("fleet.cards.weatherImpact")}
        value={impact ? t(`fleet.weather.impact.${impact}`) : "—"}
        wordy
        footnote={
          weather ? (
            <>
              {t("fleet.cards.weatherDetail", {
                cloud: formatPercent(weather.cloudCover, locale, 0),
                irradiance: formatIrradiance(weather.solarIrradiance, locale),
              })}
              <br />
              {t("fleet.asOf", { time: time(weather.time) })}
            </>
          ) : (
            t("fleet.weather.unavailable")
          )
        }
      />
    </div>
  );
}
