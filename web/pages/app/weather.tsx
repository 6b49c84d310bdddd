import { RiInformationLine, RiSunCloudyLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Callout } from "@tremor/react";
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
import { analyticsListQueryOptions } from "../../lib/queries/analytics";
import { sitesQueryOptions } from "../../lib/queries/sites";

/** Weather Correlation: per site, the current weather beside the chosen day's generation (SPEC section 2). */
export function WeatherPage() {
  const { t } = useTranslation();
  const timeZone = useUserTimeZone();
  // One clock for the whole page so every site reads "today" from the same instant.
  const [now] = useState(() => Date.now());
  const today = localDate(now, timeZone);
  const [chosenDay, setChosenDay] = useState<string | null>(null);
  const day = chosenDay ?? today;
  const sites = useQuery(sitesQueryOptions());
  // Only sites need their systems' records; without sites the page is its empty state.
  const systems = useQuery({ ...analyticsListQueryOptions(), enabled: (sites.data?.length ?? 0) > 0 });

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
  } else if (systems.isPending) {
    body = <Spinner className="py-16" />;
  } else if (systems.isError) {
    body = (
      <ErrorState
        title={t("insights.list.loadFailed")}
        error={systems.error}
        onRetry={() => systems.refetch()}
      />
    );
  } else {
    body = (
      <div className="space-y-6">
        <Callout title={t("insights.weather.gapTitle")} color="blue" icon={RiInformationLine}>
          {t("insights.weather.gapBody")}
        </Callout>
        {sites.data.map((site) => (
          <SiteWeatherCard
            key={site.id}
            site={site}
            systems={systems.data.filter((record) => record.siteId === site.id)}
            day={day}
            now={now}
          />
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
