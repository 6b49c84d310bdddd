import { RiSunCloudyLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { Pager } from "../../components/site-lists/list-controls";
import { type SearchPatch, SiteFilters } from "../../components/site-lists/site-filters";
import { DateInput } from "../../components/ui/date-input";
import { EmptyState } from "../../components/ui/empty-state";
import { ErrorState } from "../../components/ui/error-state";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { useUserTimeZone } from "../../components/use-user-time-zone";
import { localDate, shiftDate, WEATHER_MAX_DAYS_BACK } from "../../components/weather/day";
import { SiteWeatherCard, type WeatherPlace } from "../../components/weather/site-weather-card";
import { formatCount, localeFor } from "../../lib/format";
import { useFleetListsStrings } from "../../lib/i18n/fleet-lists";
import { useWeatherStrings } from "../../lib/i18n/weather";
import {
  availableSystemsPageQueryOptions,
  siteCountsQueryOptions,
  sitesPageQueryOptions,
} from "../../lib/queries/site-lists";
import type { WeatherSearch } from "../../lib/weather-search";

/** Each card charts a day and asks for the weather: a page of ten stays light at any fleet size. */
const SITES_PER_PAGE = 10;
const PLANTS_PER_PAGE = 10;

/**
 * Weather Correlation: a page of sites (worst performance first unless ordered otherwise,
 * searched and filtered by the server, as the other site screens), then a page of the plants with
 * coordinates on no site, each with its current weather beside the chosen day's generation against
 * irradiance. What is shown lives in the URL; the day is the viewer's choice on this visit.
 */
export function WeatherPage({
  search,
  onSearch,
}: {
  search: WeatherSearch;
  onSearch: (patch: Partial<WeatherSearch>) => void;
}) {
  const { t, i18n } = useTranslation();
  useFleetListsStrings();
  useWeatherStrings();
  const locale = localeFor(i18n.language);
  const timeZone = useUserTimeZone();
  const [now] = useState(() => Date.now());
  const today = localDate(now, timeZone);
  const [chosenDay, setChosenDay] = useState<string | null>(null);
  const day = chosenDay ?? today;
  const { plants: plantPage = 1, ...siteSearch } = search;
  const sitesQuery = useQuery(sitesPageQueryOptions(siteSearch, SITES_PER_PAGE));
  const countsQuery = useQuery(siteCountsQueryOptions(siteSearch));
  const plantsQuery = useQuery(availableSystemsPageQueryOptions(search.q, plantPage, PLANTS_PER_PAGE));
  const siteTotal = sitesQuery.data?.total ?? 0;
  const plantTotal = plantsQuery.data?.total ?? 0;
  const filtered = Object.keys(siteSearch).some((key) => !["sort", "page"].includes(key));

  const sites: WeatherPlace[] = (sitesQuery.data?.items ?? []).map((site) => ({
    kind: "site" as const,
    id: site.id,
    name: site.name,
    description: `${site.location} · ${site.timezone}`,
    latitude: site.latitude,
    longitude: site.longitude,
  }));
  // Weather needs a place, not a site: plants with coordinates count, the others are left out.
  const plants: WeatherPlace[] = (plantsQuery.data?.items ?? []).flatMap((plant) =>
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
  );
  const cards = (places: WeatherPlace[]) => (
    <div className="space-y-6">
      {places.map((place) => (
        <SiteWeatherCard key={`${place.kind}-${place.id}`} site={place} day={day} />
      ))}
    </div>
  );

  let body: ReactNode;
  if (sitesQuery.isPending || plantsQuery.isPending) {
    body = <Spinner className="py-16" />;
  } else if (sitesQuery.isError || plantsQuery.isError) {
    body = (
      <ErrorState
        title={t("insights.weather.sitesFailed")}
        error={sitesQuery.error ?? plantsQuery.error}
        onRetry={() => {
          void sitesQuery.refetch();
          void plantsQuery.refetch();
        }}
      />
    );
  } else if (siteTotal === 0 && plantTotal === 0 && !filtered) {
    body = (
      <EmptyState icon={RiSunCloudyLine} title={t("weather.emptyTitle")} description={t("weather.emptyBody")}>
        <PlaceholderLinks />
      </EmptyState>
    );
  } else {
    body = (
      <div className="space-y-6">
        {siteTotal > 0 || filtered ? (
          <>
            <SiteFilters
              search={siteSearch}
              counts={countsQuery.data}
              onChange={(patch: SearchPatch) => onSearch(patch)}
            />
            <p className="text-tremor-default text-tremor-content" aria-live="polite">
              {t("fleetLists.matching", { count: siteTotal, formatted: formatCount(siteTotal, locale) })}
            </p>
            {sites.length === 0 ? (
              <EmptyState
                icon={RiSunCloudyLine}
                title={t("fleetLists.noMatchTitle")}
                description={t("fleetLists.noMatchBody")}
              />
            ) : (
              cards(sites)
            )}
            <Pager
              page={siteSearch.page ?? 1}
              pageCount={Math.ceil(siteTotal / SITES_PER_PAGE)}
              onPage={(page) => onSearch({ page })}
            />
          </>
        ) : null}
        {plantTotal > 0 ? (
          <section aria-labelledby="weather-plants" className="space-y-4">
            <h2 id="weather-plants" className="text-tremor-title font-semibold text-tremor-content-strong">
              {t("fleetLists.plantsWithoutSite")}
            </h2>
            <p className="text-tremor-default text-tremor-content">
              {t("fleetLists.matchingSystems", {
                count: plantTotal,
                formatted: formatCount(plantTotal, locale),
              })}
            </p>
            {cards(plants)}
            <Pager
              page={plantPage}
              pageCount={Math.ceil(plantTotal / PLANTS_PER_PAGE)}
              onPage={(page) => onSearch({ plants: page })}
            />
          </section>
        ) : null}
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
