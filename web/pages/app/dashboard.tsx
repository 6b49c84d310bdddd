import { RiAddLine, RiErrorWarningLine, RiInformationLine, RiSunLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Callout } from "@tremor/react";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import type { DashboardSummary } from "../../../schema/api/dashboard";
import type { Site } from "../../../schema/api/sites";
import { AlertsPanel } from "../../components/dashboard/alerts-panel";
import { ProviderSummary } from "../../components/dashboard/provider-summary";
import { SummaryCards } from "../../components/dashboard/summary-cards";
import { SystemPerformanceTable } from "../../components/dashboard/system-performance-table";
import { WeatherPanel } from "../../components/dashboard/weather-panel";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { ButtonLink } from "../../components/ui/button-link";
import { EmptyState } from "../../components/ui/empty-state";
import { ErrorState } from "../../components/ui/error-state";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { useUserTimeZone } from "../../components/use-user-time-zone";
import { formatTime, localeFor } from "../../lib/format";
import { dashboardSummaryQueryOptions, useFleetUnavailableSince } from "../../lib/queries/dashboard";
import { useFleetSeries } from "../../lib/queries/fleet-series";
import { sitesQueryOptions } from "../../lib/queries/sites";
import { currentWeatherQueryOptions } from "../../lib/queries/weather";

// What the fleet lost this month loads after the first screen, with the losses' own code.
const FleetLostThisMonth = lazy(() =>
  import("../../components/losses/lost-this-month").then((module) => ({
    default: module.FleetLostThisMonth,
  })),
);

// The chart library (recharts under Tremor's charts) loads with the chart, after the first screen.
const GenerationChart = lazy(() =>
  import("../../components/dashboard/generation-chart").then((module) => ({
    default: module.GenerationChart,
  })),
);

/** Default coordinates (New York), used only when nothing in the organisation has a place. */
const DEFAULT_WEATHER_LOCATION = { latitude: 40.7128, longitude: -74.006 } as const;

interface WeatherLocation {
  latitude: number;
  longitude: number;
  siteName: string | null;
}

/**
 * Where the weather is read: the first site, else the first system with coordinates (a plant
 * not on a site yet), the default point only when nothing has a place.
 */
function weatherLocation(
  sites: readonly Site[] | undefined,
  sitesFailed: boolean,
  summary: DashboardSummary | undefined,
): WeatherLocation | null {
  const first = sites?.[0];
  if (first) return { latitude: first.latitude, longitude: first.longitude, siteName: first.name };
  if ((!sites && !sitesFailed) || !summary) return null;
  const place = summary.weatherPlace;
  return place
    ? { latitude: place.latitude, longitude: place.longitude, siteName: place.name }
    : { ...DEFAULT_WEATHER_LOCATION, siteName: null };
}

export function DashboardPage() {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const timeZone = useUserTimeZone();
  // The fleet's totals and one page of its systems: never every system's entry, whatever its size.
  const summaryQuery = useQuery(dashboardSummaryQueryOptions());
  const unavailableSince = useFleetUnavailableSince();
  const sitesQuery = useQuery(sitesQueryOptions(1));
  const location = weatherLocation(sitesQuery.data, sitesQuery.isError, summaryQuery.data?.summary);
  const weatherQuery = useQuery({
    ...currentWeatherQueryOptions(location?.latitude ?? 0, location?.longitude ?? 0),
    enabled: location !== null,
  });

  // One call for the whole fleet's chart and comparisons, whatever its size.
  const seriesQuery = useFleetSeries();

  const header = <PageHeader title={t("pages.dashboard")} description={t("dashboard.subtitle")} />;

  if (summaryQuery.isPending) {
    return (
      <>
        {header}
        <Spinner label={t("fleet.loading")} className="py-16" />
      </>
    );
  }
  if (summaryQuery.data === undefined) {
    return (
      <>
        {header}
        <ErrorState
          title={t("fleet.loadFailed")}
          error={summaryQuery.error}
          onRetry={() => void summaryQuery.refetch()}
        />
      </>
    );
  }
  const { summary, fallback } = summaryQuery.data;
  const unavailableNotice = unavailableSince ? (
    <Callout title={t("fleet.unavailableTitle")} color="amber" icon={RiErrorWarningLine} className="mb-6">
      {t("fleet.unavailableBody", { time: formatTime(unavailableSince, { locale, timeZone }) })}
    </Callout>
  ) : null;
  if (summary.systemCount === 0) {
    return (
      <>
        {header}
        {unavailableNotice}
        <EmptyState icon={RiSunLine} title={t("dashboard.emptyTitle")} description={t("dashboard.emptyBody")}>
          <ButtonLink to="/app/create-site">
            <RiAddLine className="h-4 w-4" aria-hidden="true" />
            {t("dashboard.addSite")}
          </ButtonLink>
          <PlaceholderLinks />
        </EmptyState>
      </>
    );
  }

  const series = seriesQuery.data ?? (seriesQuery.isError ? null : undefined);

  return (
    <>
      {header}
      {unavailableNotice}
      <div className="space-y-6">
        {fallback ? (
          <Callout title={t("fleet.fallbackTitle")} color="amber" icon={RiInformationLine}>
            {t("fleet.fallbackBody")}
          </Callout>
        ) : null}
        <SummaryCards
          totals={summary.totals}
          sites={fallback ? null : summary.sites}
          series={series}
          weather={weatherQuery.data}
          locale={locale}
          timeZone={timeZone}
        />
        <Suspense fallback={null}>
          <FleetLostThisMonth locale={locale} />
        </Suspense>
        <div className="grid gap-6 lg:grid-cols-3">
          <div className="lg:col-span-2">
            <Suspense fallback={<Spinner />}>
              <GenerationChart query={seriesQuery} locale={locale} timeZone={timeZone} />
            </Suspense>
          </div>
          <ProviderSummary
            providers={summary.providers}
            excludedSystemCount={summary.excludedSystemCount}
            locale={locale}
          />
        </div>
        <div className="grid gap-6 lg:grid-cols-2">
          <AlertsPanel locale={locale} timeZone={timeZone} />
          <WeatherPanel
            query={location ? weatherQuery : null}
            siteName={location?.siteName ?? null}
            locale={locale}
            timeZone={timeZone}
          />
        </div>
        {fallback ? null : (
          <SystemPerformanceTable systemCount={summary.systemCount} locale={locale} timeZone={timeZone} />
        )}
      </div>
    </>
  );
}
