import { RiMapPinLine } from "@remixicon/react";
import { useQueries } from "@tanstack/react-query";
import { AreaChart, BarChart, Card } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import type { Site } from "../../../schema/api/sites";
import { formatEnergyWh, localeFor } from "../../lib/format";
import { systemAnalyticsQueryOptions } from "../../lib/queries/analytics";
import { recordName } from "../analytics/metrics";
import { formatKw, formatKwh, formatRatio } from "../analytics/units";
import { ErrorState } from "../ui/error-state";
import { Spinner } from "../ui/spinner";
import { CurrentWeather } from "./current-weather";
import { localDate, rangeForDay } from "./day";

const FIVE_MINUTES_MS = 5 * 60_000;

interface SiteWeatherCardProps {
  site: Site;
  /** The site's monitoring systems (analytics records whose siteId is the site's). */
  systems: AnalyticsRecord[];
  /** The chosen calendar day, YYYY-MM-DD, read on each plant's own clock. */
  day: string;
  now: number;
}

/** One site: its current weather beside its systems' power on the chosen day and that day's energy against irradiance. */
export function SiteWeatherCard({ site, systems, day, now }: SiteWeatherCardProps) {
  const { t } = useTranslation();
  const headingId = `weather-site-${site.id}`;
  return (
    <Card role="article" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id={headingId} className="text-tremor-title font-semibold text-tremor-content-strong">
            {site.name}
          </h2>
          <p className="mt-1 flex items-center gap-1 text-tremor-label text-tremor-content">
            <RiMapPinLine className="h-3.5 w-3.5" aria-hidden="true" />
            {site.location} · {site.timezone}
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
        <section aria-label={t("insights.weather.generationTitle")}>
          <h3 className="mb-1 text-tremor-default font-medium text-tremor-content-strong">
            {t("insights.weather.generationTitle")}
          </h3>
          {systems.length === 0 ? (
            <p className="text-tremor-default text-tremor-content">{t("insights.weather.noSystems")}</p>
          ) : (
            <SiteGeneration site={site} systems={systems} day={day} now={now} />
          )}
        </section>
      </div>
    </Card>
  );
}

function SiteGeneration({ site, systems, day, now }: SiteWeatherCardProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const range = rangeForDay(day, localDate(now, site.timezone));
  const results = useQueries({
    queries: systems.map((system) => ({
      ...systemAnalyticsQueryOptions(system.systemId, range ?? "24h"),
      enabled: range !== null,
    })),
  });
  if (range === null) {
    return <p className="text-tremor-default text-tremor-content">{t("insights.weather.dayOutOfReach")}</p>;
  }
  if (results.some((result) => result.isPending)) return <Spinner className="py-8" />;
  const failed = results.find((result) => result.isError);
  if (failed?.error) return <ErrorState title={t("insights.weather.seriesFailed")} error={failed.error} />;

  const records = results.flatMap((result) => (result.data?.[0] ? [result.data[0]] : []));
  const names = records.map((record) => recordName(record));
  const label = new Intl.DateTimeFormat(locale, {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: site.timezone,
  });

  // Readings of several systems line up on the 5-minute grid the providers deliver.
  const rows = new Map<number, Record<string, number | string | null>>();
  records.forEach((record, index) => {
    const name = names[index] ?? record.systemId;
    for (const point of record.series?.power ?? []) {
      if (localDate(point.time, site.timezone) !== day) continue;
      const slot = Math.floor(Date.parse(point.time) / FIVE_MINUTES_MS) * FIVE_MINUTES_MS;
      const row = rows.get(slot) ?? { time: label.format(new Date(slot)) };
      row[name] = point.powerW === null ? null : point.powerW / 1000;
      rows.set(slot, row);
    }
  });
  const powerData = [...rows.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);

  const actual = t("insights.charts.actual");
  const expected = t("insights.charts.expected");
  const energyRows = records.map((record, index) => {
    const energy = record.series?.energy.find((entry) => entry.date === day);
    return {
      name: names[index] ?? record.systemId,
      energyWh: energy?.energyWh ?? null,
      expectedWh: energy?.expectedWh ?? null,
      performanceRatio: energy?.performanceRatio ?? null,
    };
  });
  const energyData = energyRows.map((row) => ({
    system: row.name,
    [actual]: row.energyWh === null ? null : row.energyWh / 1000,
    [expected]: row.expectedWh === null ? null : row.expectedWh / 1000,
  }));

  return (
    <div className="space-y-4">
      <p className="text-tremor-label text-tremor-content">
        {t("insights.weather.powerCaption", { timeZone: site.timezone })}
      </p>
      <AreaChart
        className="h-56"
        data={powerData}
        index="time"
        categories={names}
        colors={["amber", "blue", "emerald", "violet", "rose", "cyan"]}
        stack
        valueFormatter={(value) => formatKw(value, locale)}
        yAxisWidth={72}
        showAnimation={false}
        connectNulls={false}
        noDataText={t("insights.weather.noPowerForDay")}
      />
      <div>
        <h4 className="text-tremor-default font-medium text-tremor-content-strong">
          {t("insights.weather.energyVsIrradiance")}
        </h4>
        <p className="text-tremor-label text-tremor-content">{t("insights.weather.energyCaption")}</p>
        <BarChart
          className="mt-2 h-44"
          data={energyData}
          index="system"
          categories={[actual, expected]}
          colors={["blue", "gray"]}
          valueFormatter={(value) => formatKwh(value, locale)}
          yAxisWidth={80}
          showAnimation={false}
          noDataText={t("insights.charts.noEnergy")}
        />
        <ul className="mt-2 space-y-1 text-tremor-label text-tremor-content">
          {energyRows.map((row) => (
            <li key={row.name}>
              {t("insights.weather.energyLine", {
                system: row.name,
                actual: row.energyWh === null ? "—" : formatEnergyWh(row.energyWh, locale),
                expected: row.expectedWh === null ? "—" : formatEnergyWh(row.expectedWh, locale),
                pr: formatRatio(row.performanceRatio, locale),
              })}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
