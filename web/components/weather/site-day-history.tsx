import { useQuery } from "@tanstack/react-query";
import { AreaChart, LineChart } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { WeatherHistory } from "../../../schema/api/weather-history";
import {
  formatCapacityKw,
  formatEnergyWh,
  formatIrradiance,
  formatKw,
  formatNumber,
  formatRatio,
  localeFor,
} from "../../lib/format";
import { type WeatherPlaceRef, weatherHistoryQueryOptions } from "../../lib/queries/weather";
import { ErrorState } from "../ui/error-state";
import { FactList } from "../ui/fact-list";
import { Spinner } from "../ui/spinner";
import { coversWholeDay, type HourRow, historyRows, hourLabels } from "./history-series";

/** Both charts share the hour axis; equal axis widths keep their hours one above the other. */
const Y_AXIS_WIDTH = 80;

/**
 * GET /api/sites/:id/weather-history (or /api/systems/:id/… for a plant without a site): the day's
 * power against irradiance, hour by hour, with totals.
 */
export function SiteDayHistory({ place, day }: { place: WeatherPlaceRef; day: string }) {
  const { t } = useTranslation();
  const history = useQuery(weatherHistoryQueryOptions(place, day));
  if (history.isPending) return <Spinner className="py-8" />;
  if (history.isError) {
    return (
      <ErrorState
        title={t("insights.weather.historyFailed")}
        error={history.error}
        onRetry={() => history.refetch()}
      />
    );
  }
  const hours = history.data.hours;
  if (!hours.some((hour) => hour.irradianceWm2 !== null || hour.powerW !== null)) {
    return (
      <p className="py-8 text-tremor-default text-tremor-content">{t("insights.weather.noIrradiance")}</p>
    );
  }
  return <DayHistory history={history.data} />;
}

function DayHistory({ history }: { history: WeatherHistory }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const timeZone = history.timezone;
  const rows = historyRows(history.hours, locale, timeZone);
  const generation = t("insights.weather.generationSeries");
  const expected = t("insights.weather.expectedSeries");
  const irradiance = t("insights.weather.irradianceSeries");
  const hasPower = rows.some((row) => row.powerKw !== null);
  const hasIrradiance = rows.some((row) => row.irradianceWm2 !== null);
  const powerData = rows.map((row) => ({
    hour: row.label,
    [generation]: row.powerKw,
    [expected]: row.expectedKw,
  }));
  const irradianceData = rows.map((row) => ({ hour: row.label, [irradiance]: row.irradianceWm2 }));

  return (
    <div className="space-y-4">
      <Totals history={history} />
      <p className="text-tremor-label text-tremor-content">{t("insights.weather.siteClock", { timeZone })}</p>
      {history.systemCount === 0 ? (
        <p className="text-tremor-default text-tremor-content">{t("insights.weather.noSystems")}</p>
      ) : hasPower ? null : (
        <p className="text-tremor-default text-tremor-content">{t("insights.weather.noGeneration")}</p>
      )}
      <div>
        <h4 className="text-tremor-default font-medium text-tremor-content-strong">
          {t("insights.weather.powerChartTitle")}
        </h4>
        <LineChart
          className="mt-2 h-56"
          data={powerData}
          index="hour"
          categories={[generation, expected]}
          colors={["amber", "gray"]}
          valueFormatter={(value) => formatKw(value, locale)}
          yAxisWidth={Y_AXIS_WIDTH}
          showAnimation={false}
          connectNulls={false}
        />
      </div>
      <div>
        <h4 className="text-tremor-default font-medium text-tremor-content-strong">
          {t("insights.weather.irradianceChartTitle")}
        </h4>
        {hasIrradiance ? null : (
          <p className="text-tremor-default text-tremor-content">{t("insights.weather.noIrradiance")}</p>
        )}
        <AreaChart
          className="mt-2 h-40"
          data={irradianceData}
          index="hour"
          categories={[irradiance]}
          colors={["sky"]}
          valueFormatter={(value) => formatIrradiance(value, locale)}
          yAxisWidth={Y_AXIS_WIDTH}
          showAnimation={false}
          connectNulls={false}
        />
        <p className="mt-2 text-tremor-label text-tremor-content">
          {t("insights.weather.irradianceSource", { source: history.source })}
        </p>
      </div>
      <HourlyTable rows={rows} timeZone={timeZone} />
    </div>
  );
}

/** The day's energy, expectation, irradiation and PR, with the hour they run to. */
function Totals({ history }: { history: WeatherHistory }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const { totals, timezone: timeZone } = history;
  const energy = (wh: number | null) => (wh === null ? "—" : formatEnergyWh(wh, locale));
  const facts = [
    { label: t("insights.weather.totalEnergy"), value: energy(totals.energyWh) },
    { label: t("insights.weather.totalExpected"), value: energy(totals.expectedWh) },
    {
      label: t("insights.weather.totalIrradiation"),
      value:
        totals.irradiationWhM2 === null
          ? "—"
          : `${formatNumber(totals.irradiationWhM2 / 1000, locale, 2)} kWh/m²`,
    },
    { label: t("insights.weather.totalPr"), value: formatRatio(totals.performanceRatio, locale) },
  ];
  const span = coversWholeDay(history.hours, totals.through)
    ? t("insights.weather.totalsWholeDay", { timeZone })
    : totals.through === null
      ? t("insights.weather.totalsNotStarted")
      : t("insights.weather.totalsThrough", {
          time: hourLabels([totals.through], locale, timeZone)[0],
          timeZone,
        });
  return (
    <div>
      <FactList facts={facts} className="sm:grid-cols-4" />
      <p className="mt-2 text-tremor-label text-tremor-content">
        {span}{" "}
        {history.capacityW === null
          ? t("insights.weather.noCapacity")
          : t("insights.weather.expectedBasis", {
              capacity: formatCapacityKw(history.capacityW / 1000, locale),
            })}
      </p>
    </div>
  );
}

/** The charts' figures as a table: readable without the chart, and by screen readers. */
function HourlyTable({ rows, timeZone }: { rows: HourRow[]; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const cell = (value: number | null, digits: number) =>
    value === null ? "—" : formatNumber(value, locale, digits);
  return (
    <details>
      <summary className="cursor-pointer text-tremor-default text-tremor-content-emphasis">
        {t("insights.weather.hourlyTable")}
      </summary>
      <table className="mt-2 w-full text-left text-tremor-label">
        <thead className="text-tremor-content">
          <tr>
            <th scope="col">{t("insights.weather.hourColumn", { timeZone })}</th>
            <th scope="col">{t("insights.weather.irradianceSeries")}</th>
            <th scope="col">{t("insights.weather.generationSeries")}</th>
            <th scope="col">{t("insights.weather.expectedSeries")}</th>
          </tr>
        </thead>
        <tbody className="text-tremor-content-strong">
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row" className="font-normal">
                {row.label}
              </th>
              <td>{cell(row.irradianceWm2, 0)}</td>
              <td>{cell(row.powerKw, 2)}</td>
              <td>{cell(row.expectedKw, 2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
