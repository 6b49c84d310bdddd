import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { WEATHER_ATTRIBUTION } from "../../../schema/api/weather";
import {
  formatCelsius,
  formatDateTime,
  formatIrradiance,
  formatPercent,
  formatSpeedKmh,
  formatUvIndex,
  localeFor,
} from "../../lib/format";
import { currentWeatherQueryOptions } from "../../lib/queries/weather";
import { ErrorState } from "../ui/error-state";
import { Spinner } from "../ui/spinner";
import { useUserTimeZone } from "../use-user-time-zone";
import { uvLabel } from "./labels";
import { WeatherFacts } from "./weather-facts";

/** GET /api/weather/current at the site, with the cloud-cover and UV labels, the observation time and the source. */
export function CurrentWeather({ latitude, longitude }: { latitude: number; longitude: number }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const timeZone = useUserTimeZone();
  const weather = useQuery(currentWeatherQueryOptions(latitude, longitude));
  if (weather.isPending) return <Spinner className="py-8" />;
  if (weather.isError) return <ErrorState title={t("insights.weather.loadFailed")} error={weather.error} />;
  const w = weather.data;
  return (
    <WeatherFacts
      cloudCover={w.cloudCover}
      temperature={formatCelsius(w.temperature, locale)}
      facts={[
        { label: t("insights.weather.irradiance"), value: formatIrradiance(w.solarIrradiance, locale) },
        { label: t("insights.weather.cloudCover"), value: formatPercent(w.cloudCover, locale, 0) },
        { label: t("insights.weather.wind"), value: formatSpeedKmh(w.windSpeed, locale) },
        { label: t("insights.weather.humidity"), value: formatPercent(w.humidity, locale, 0) },
        {
          label: t("insights.weather.uv"),
          value: `${formatUvIndex(w.uvIndex, locale)} · ${t(`insights.weather.uvLabels.${uvLabel(w.uvIndex)}`)}`,
        },
      ]}
      footer={
        <>
          <p>{t("insights.weather.observed", { time: formatDateTime(w.time, { locale, timeZone }) })}</p>
          <p className="mt-1">
            <a
              href="https://open-meteo.com/"
              target="_blank"
              rel="noreferrer"
              className="underline hover:text-tremor-content-emphasis"
            >
              {WEATHER_ATTRIBUTION}
            </a>
          </p>
        </>
      }
    />
  );
}
