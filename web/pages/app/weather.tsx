import { RiSunCloudyLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { DateInput } from "../../components/ui/date-input";
import { EmptyState } from "../../components/ui/empty-state";
import { ErrorState } from "../../components/ui/error-state";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { useUserTimeZone } from "../../components/use-user-time-zone";
import { localDate, shiftDate, WEATHER_MAX_DAYS_BACK } from "../../components/weather/day";
import { SiteWeatherCard } from "../../components/weather/site-weather-card";
import { sitesQueryOptions } from "../../lib/queries/sites";

/** Weather Correlation: per site, the current weather beside the chosen day's generation against irradiance. */
export function WeatherPage() {
  const { t } = useTranslation();
  const timeZone = useUserTimeZone();
  const [now] = useState(() => Date.now());
  const today = localDate(now, timeZone);
  const [chosenDay, setChosenDay] = useState<string | null>(null);
  const day = chosenDay ?? today;
  const sites = useQuery(sitesQueryOptions());

  let body: ReactNode;
  if (sites.isPending) {
    body = <Spinner className="py-16" />;
  } else if (sites.isError) {
    body = (
      <ErrorState
        title={t("insights.weather.sitesFailed")}
        error={sites.error}
        onRetry={() => sites.refetch()}
      />
    );
  } else if (sites.data.length === 0) {
    body = (
      <EmptyState icon={RiSunCloudyLine} title={t("weather.emptyTitle")} description={t("weather.emptyBody")}>
        <PlaceholderLinks />
      </EmptyState>
    );
  } else {
    body = (
      <div className="space-y-6">
        {sites.data.map((site) => (
          <SiteWeatherCard key={site.id} site={site} day={day} />
        ))}
      </div>
    );
  }

  return (
    <>
      <PageHeader
        title={t("pages.weather")}
        description={t("weather.subtitle")}
        actions={
          <div className="flex items-center gap-2">
            <label htmlFor="weather-day" className="text-tremor-default text-tremor-content-emphasis">
              {t("insights.weather.day")}
            </label>
            <div className="w-44">
              <DateInput
                id="weather-day"
                value={day}
                min={shiftDate(today, -WEATHER_MAX_DAYS_BACK)}
                max={today}
                onChange={(event) => setChosenDay(event.target.value || null)}
              />
            </div>
          </div>
        }
      />
      {body}
    </>
  );
}
