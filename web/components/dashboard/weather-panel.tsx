import { RiCloudyLine, RiSunLine } from "@remixicon/react";
import type { UseQueryResult } from "@tanstack/react-query";
import { Card, Title } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { CurrentWeather } from "../../../schema/api/weather";
import {
  formatCelsius,
  formatDateTime,
  formatIrradiance,
  formatPercent,
  formatSpeedKmh,
  formatUvIndex,
} from "../../lib/format";
import { ErrorState } from "../ui/error-state";
import { Spinner } from "../ui/spinner";
import { conditionsLabel, showsCloudIcon, uvLabel } from "../weather/labels";

interface WeatherPanelProps {
  query: Pick<UseQueryResult<CurrentWeather>, "data" | "isPending" | "isError" | "error" | "refetch"> | null;
  /** The site the weather is for; null at the default location (no sites yet). */
  siteName: string | null;
  locale: string;
  timeZone: string | undefined;
}

export function WeatherPanel({ query, siteName, locale, timeZone }: WeatherPanelProps) {
  const { t } = useTranslation();
  const weather = query?.data;
  const Icon = weather && showsCloudIcon(weather.cloudCover) ? RiCloudyLine : RiSunLine;
  return (
    <Card>
      <Title>{t("fleet.weather.title")}</Title>
      <p className="text-tremor-label text-tremor-content">
        {siteName ? t("fleet.weather.forSite", { site: siteName }) : t("fleet.weather.defaultLocation")}
      </p>
      {query === null || query.isPending ? (
        <Spinner className="py-8" />
      ) : query.isError || !weather ? (
        <div className="mt-4">
          <ErrorState
            title={t("fleet.weather.unavailable")}
            error={query.error}
            onRetry={() => void query.refetch()}
          />
        </div>
      ) : (
        <>
          <div className="mt-4 flex items-center gap-4">
            <Icon
              className={`h-12 w-12 ${showsCloudIcon(weather.cloudCover) ? "text-gray-500" : "text-amber-500"}`}
              aria-hidden="true"
            />
            <div>
              <p className="text-2xl font-semibold text-tremor-content-strong">
                {formatCelsius(weather.temperature, locale)}
              </p>
              <p className="text-tremor-default text-tremor-content-emphasis">
                {t(`fleet.weather.sky.${conditionsLabel(weather.cloudCover)}`)}
              </p>
            </div>
          </div>
          <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-2 text-tremor-default">
            <dt className="text-tremor-content">{t("fleet.weather.cloudCover")}</dt>
            <dd className="text-right text-tremor-content-strong">
              {formatPercent(weather.cloudCover, locale, 0)}
            </dd>
            <dt className="text-tremor-content">{t("fleet.weather.irradiance")}</dt>
            <dd className="text-right text-tremor-content-strong">
              {formatIrradiance(weather.solarIrradiance, locale)}
            </dd>
            <dt className="text-tremor-content">{t("fleet.weather.wind")}</dt>
            <dd className="text-right text-tremor-content-strong">
              {formatSpeedKmh(weather.windSpeed, locale)}
            </dd>
            <dt className="text-tremor-content">{t("fleet.weather.humidity")}</dt>
            <dd className="text-right text-tremor-content-strong">
              {formatPercent(weather.humidity, locale, 0)}
            </dd>
            <dt className="text-tremor-content">{t("fleet.weather.uv")}</dt>
            <dd className="text-right text-tremor-content-strong">
              {formatUvIndex(weather.uvIndex, locale)} ·{" "}
              {t(`fleet.weather.uvLevel.${uvLabel(weather.uvIndex)}`)}
            </dd>
          </dl>
          <p className="mt-4 text-tremor-label text-tremor-content">
            {t("fleet.weather.observed", { time: formatDateTime(weather.time, { locale, timeZone }) })}
            {" · "}
            <a
              href="https://open-meteo.com/"
              target="_blank"
              rel="noreferrer"
              className="underline hover:text-tremor-content-emphasis"
            >
              {t("fleet.weather.attribution")}
            </a>
          </p>
        </>
      )}
    </Card>
  );
}
