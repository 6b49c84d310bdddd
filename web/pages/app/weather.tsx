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
import { SiteWeatherCard, type WeatherPlace } from "../../components/weather/site-weather-card";
import { availableSystemsQueryOptions, sitesQueryOptions } from "../../lib/queries/sites";

/** Weather Correlation: per site (and per located plant without a site), the current weather beside the chosen day's generation against irradiance. */
export function WeatherPage() {
  const { t } = useTranslation();
  const timeZone = useUserTimeZone();
  const [now] = useState(() => Date.now());
  const today = localDate(now, timeZone);
  const [chosenDay, setChosenDay] = useState<string | null>(null);
  const day = chosenDay ?? today;
  const sites = useQuery(sitesQueryOptions());
  const plants = useQuery(availableSystemsQueryOptions());
  // Sites, then plants with coordinates that have no site: weather needs a place, not a site.
  const places: WeatherPlace[] = [
    ...(sites.data ?? []).map((site) => ({
      kind: "site" as const,
      id: site.id,
      name: site.name,
      description: `${site.location} · ${site.timezone}`,
      latitude: site.latitude,
      longitude: site.longitude,
    })),
    ...(plants.data ?? []).flatMap((plant) =>
      plant.latitude === null || plant.longitude === null
        ? []
        : [
            {
              kind: "system" as const,
              id: plant.id,
              name: plant.name,
              description: plant.location ?? `${plant.latitude}, ${plant.longitude}`,
              latitude: plant.latitude,
              longitude: plant.longitude,
            },
          ],
    ),
  ];

  let body: ReactNode;
  if (sites.isPending || plants.isPending) {
    body = <Spinner className="py-16" />;
  } else if (sites.isError || plants.isError) {
    body = (
      <ErrorState
        title={t("insights.weather.sitesFailed")}
        error={sites.error ?? plants.error}
        onRetry={() => {
          void sites.refetch();
          void plants.refetch();
        }}
      />
    );
  } else if (places.length === 0) {
    body = (
      <EmptyState icon={RiSunCloudyLine} title={t("weather.emptyTitle")} description={t("weather.emptyBody")}>
        <PlaceholderLinks />
      </EmptyState>
    );
  } else {
    body = (
      <div className="space-y-6">
        {places.map((place) => (
          <SiteWeatherCard key={`${place.kind}-${place.id}`} site={place} day={day} />
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
