import { AreaChart, BarChart, LineChart } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { AnalyticsQuery, AnalyticsRecord } from "../../../schema/api/analytics";
import { formatKw, formatKwh, formatPercent, localeFor } from "../../lib/format";

type Series = NonNullable<AnalyticsRecord["series"]>;

/** How a point's time reads on the axis: the hour for one day, the date for a year. */
function timeLabel(range: AnalyticsQuery["range"], locale: string, timeZone: string) {
  const options: Intl.DateTimeFormatOptions =
    range === "24h"
      ? { hour: "2-digit", minute: "2-digit" }
      : range === "1y"
        ? { day: "numeric", month: "short" }
        : { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
  } catch {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
  }
  return (iso: string) => format.format(new Date(iso));
}

/** A plant-local day (YYYY-MM-DD) as a short date; built at UTC noon so no zone moves it. */
export function dayLabel(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" }).format(
    new Date(`${date}T12:00:00Z`),
  );
}

interface PowerChartProps {
  power: Series["power"];
  range: AnalyticsQuery["range"];
  /** The plant's IANA zone: the axis reads the plant's clock. */
  timeZone: string;
  className?: string;
}

/** The power series in kW; a missing reading is a gap, never a zero. */
export function PowerChart({ power, range, timeZone, className = "h-72" }: PowerChartProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const label = timeLabel(range, locale, timeZone);
  const category = t("insights.charts.power");
  const data = power.map((point) => ({
    time: label(point.time),
    [category]: point.powerW === null ? null : point.powerW / 1000,
  }));
  return (
    <AreaChart
      className={className}
      data={data}
      index="time"
      categories={[category]}
      colors={["amber"]}
      valueFormatter={(value) => formatKw(value, locale)}
      yAxisWidth={72}
      showAnimation={false}
      connectNulls={false}
      noDataText={t("insights.charts.noPower")}
    />
  );
}

interface EnergyChartProps {
  energy: Series["energy"];
  className?: string;
}

/** Actual against expected energy per plant-local day, in kWh. */
export function EnergyComparisonChart({ energy, className = "h-72" }: EnergyChartProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const actual = t("insights.charts.actual");
  const expected = t("insights.charts.expected");
  const data = energy.map((day) => ({
    date: dayLabel(day.date, locale),
    [actual]: day.energyWh === null ? null : day.energyWh / 1000,
    [expected]: day.expectedWh === null ? null : day.expectedWh / 1000,
  }));
  return (
    <BarChart
      className={className}
      data={data}
      index="date"
      categories={[actual, expected]}
      colors={["blue", "gray"]}
      valueFormatter={(value) => formatKwh(value, locale)}
      yAxisWidth={80}
      showAnimation={false}
      noDataText={t("insights.charts.noEnergy")}
    />
  );
}

/** The performance ratio per day, in %. */
export function PerformanceRatioChart({ energy, className = "h-60" }: EnergyChartProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const category = t("insights.charts.pr");
  const data = energy.map((day) => ({
    date: dayLabel(day.date, locale),
    [category]: day.performanceRatio === null ? null : day.performanceRatio * 100,
  }));
  return (
    <LineChart
      className={className}
      data={data}
      index="date"
      categories={[category]}
      colors={["emerald"]}
      valueFormatter={(value) => formatPercent(value, locale, 0)}
      yAxisWidth={56}
      showAnimation={false}
      connectNulls={false}
      noDataText={t("insights.charts.noEnergy")}
    />
  );
}
