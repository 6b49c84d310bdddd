import { Card, ProgressBar, Title } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { type DemoSnapshot, MONTHLY_TARGET_PERCENT } from "../../lib/demo/simulation";
import { formatIrradiance, formatNumber, formatPercent, localeFor } from "../../lib/format";
import { useWeatherStrings } from "../../lib/i18n/weather";
import { WeatherFacts } from "../weather/weather-facts";
import { DemoAlertList } from "./alert-list";

interface DemoOverviewProps {
  snapshot: DemoSnapshot;
  selectedSiteId: string;
}

/** Weather at the selected site, the fleet's efficiency against the 78 % monthly target, recent alerts. */
export function DemoOverviewTab({ snapshot, selectedSiteId }: DemoOverviewProps) {
  const { t, i18n } = useTranslation();
  useWeatherStrings();
  const locale = localeFor(i18n.language);
  const site = snapshot.sites.find((candidate) => candidate.id === selectedSiteId) ?? snapshot.sites[0];
  const weather = site ? snapshot.weather[site.id] : undefined;
  const efficiency = snapshot.summary.avgEfficiency;
  const gap = efficiency === null ? null : efficiency - MONTHLY_TARGET_PERCENT;
  const alerts = snapshot.sites.flatMap((s) => s.alerts).sort((a, b) => b.at - a.at);
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card>
        <Title>{t("insights.demo.weatherTitle")}</Title>
        <p className="mb-4 text-tremor-label text-tremor-content">{site?.location}</p>
        {weather ? (
          <WeatherFacts
            cloudCover={weather.cloudCover}
            temperature={`${formatNumber(weather.temperature, locale, 0)} °F`}
            facts={[
              {
                label: t("insights.weather.irradiance"),
                value: formatIrradiance(weather.irradiance, locale),
              },
              {
                label: t("insights.weather.cloudCover"),
                value: formatPercent(weather.cloudCover, locale, 0),
              },
              {
                label: t("insights.weather.wind"),
                value: `${formatNumber(weather.windSpeed, locale, 1)} mph`,
              },
            ]}
            footer={t("insights.demo.simulatedWeather")}
          />
        ) : null}
      </Card>
      <Card>
        <Title>{t("insights.demo.performanceTitle")}</Title>
        <p className="mt-4 text-tremor-label text-tremor-content">{t("insights.demo.overallEfficiency")}</p>
        <p className="text-tremor-metric font-semibold text-tremor-content-strong">
          {formatPercent(efficiency, locale)}
        </p>
        <ProgressBar
          className="mt-3"
          value={Math.min(100, efficiency ?? 0)}
          color={gap !== null && gap >= 0 ? "emerald" : "amber"}
          aria-label={t("insights.demo.overallEfficiency")}
        />
        <p className="mt-2 text-tremor-default text-tremor-content-emphasis">
          {t("insights.demo.monthlyTarget", { target: formatPercent(MONTHLY_TARGET_PERCENT, locale, 0) })}
        </p>
        <p className="text-tremor-label text-tremor-content">
          {gap === null
            ? t("insights.demo.noProductionYet")
            : gap >= 0
              ? t("insights.demo.aboveTarget", { points: formatNumber(gap, locale, 1) })
              : t("insights.demo.belowTarget", { points: formatNumber(-gap, locale, 1) })}
        </p>
        <ul className="mt-4 space-y-2">
          {snapshot.sites.map((s) => (
            <li key={s.id}>
              <div className="flex justify-between text-tremor-label text-tremor-content">
                <span>{s.name}</span>
                <span>{formatPercent(s.efficiency, locale)}</span>
              </div>
              <ProgressBar value={Math.min(100, s.efficiency ?? 0)} color="blue" className="mt-1" />
            </li>
          ))}
        </ul>
      </Card>
      <Card>
        <Title>{t("insights.demo.recentAlerts")}</Title>
        <div className="mt-4">
          <DemoAlertList alerts={alerts.slice(0, 5)} />
        </div>
      </Card>
    </div>
  );
}
