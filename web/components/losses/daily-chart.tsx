import { BarChart } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { lossCategories } from "../../../schema/loss-categories";
import { formatKwh } from "../../lib/format";
import { categoryColors } from "../../lib/losses";
import type { LossesDay } from "../../lib/queries/losses";
import { dayLabel } from "../analytics/charts";

/** Each day's losses stacked by category, kWh; loaded with the chart library, after the page. */
export function DailyLossesChart({ days, locale }: { days: LossesDay[]; locale: string }) {
  const { t } = useTranslation();
  const labels = lossCategories.map((category) => t(`losses.categories.${category}`));
  const data = days.map((day) => ({
    date: dayLabel(day.date, locale),
    ...Object.fromEntries(lossCategories.map((category, i) => [labels[i], day.losses[category]])),
  }));
  return (
    <BarChart
      className="h-72"
      data={data}
      index="date"
      categories={labels}
      colors={lossCategories.map((category) => categoryColors[category])}
      stack
      valueFormatter={(value) => formatKwh(value, locale)}
      // Room for a negative day's label ("-15.0 kWh") on one line.
      yAxisWidth={92}
      showAnimation={false}
    />
  );
}
