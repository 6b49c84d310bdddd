import { RiMapPinLine } from "@remixicon/react";
import { Card } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { formatDate, localeFor } from "../../lib/format";
import type { WeatherPlaceRef } from "../../lib/queries/weather";
import { CurrentWeather } from "./current-weather";
import { SiteDayHistory } from "./site-day-history";

/** A site, or a plant with coordinates that has no site. */
export interface WeatherPlace extends WeatherPlaceRef {
  name: string;
  /** Where it is, as shown under the name. */
  description: string;
  latitude: number;
  longitude: number;
}

interface SiteWeatherCardProps {
  site: WeatherPlace;
  /** The chosen calendar day, YYYY-MM-DD, read on the site's own clock. */
  day: string;
}

/** One site or plant: its current weather beside the chosen day's generation against irradiance, hour by hour. */
export function SiteWeatherCard({ site, day }: SiteWeatherCardProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const headingId = `weather-${site.kind}-${site.id}`;
  // Noon UTC names the calendar day whatever the viewer's zone.
  const dayName = formatDate(`${day}T12:00:00Z`, { locale, timeZone: "UTC" });
  return (
    <Card role="article" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id={headingId} className="text-tremor-title font-semibold text-tremor-content-strong">
            {site.name}
          </h2>
          <p className="mt-1 flex items-center gap-1 text-tremor-label text-tremor-content">
            <RiMapPinLine className="h-3.5 w-3.5" aria-hidden="true" />
            {site.description}
          </p>
        </div>
      </div>
      <div className="mt-4 grid gap-6 lg:grid-cols-[18rem_1fr]">
        <section aria-label={t("insights.weather.currentTitle")}>
          <h3 className="mb-3 text-tremor-default font-medium text-tremor-content-strong">
            {t("insights.weather.currentTitle")}
          </h3>
          <CurrentWeather latitude={site.latitude} longitude={site.longitude} />
        </section>
        <section aria-label={t("insights.weather.historyTitle", { date: dayName })}>
          <h3 className="mb-3 text-tremor-default font-medium text-tremor-content-strong">
            {t("insights.weather.historyTitle", { date: dayName })}
          </h3>
          <SiteDayHistory place={site} day={day} />
        </section>
      </div>
    </Card>
  );
}
