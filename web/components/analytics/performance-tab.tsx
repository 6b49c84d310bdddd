import {
  Card,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
  Title,
} from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import { formatEnergyWh, formatKwhPerKw, formatRatio, localeFor } from "../../lib/format";
import { StatCard } from "../ui/stat-card";
import { dayLabel, EnergyComparisonChart, PerformanceRatioChart } from "./charts";
import { energyYieldKwhPerKw, rangeEnergyWh, rangePerformanceRatio } from "./metrics";

/** Actual against expected energy per plant-local day (the expectation comes from measured irradiance). */
export function PerformanceTab({ record }: { record: AnalyticsRecord }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const energy = record.series?.energy ?? [];
  const actualWh = rangeEnergyWh(energy);
  const expectedWh = energy.some((day) => day.expectedWh !== null)
    ? energy.reduce((sum, day) => sum + (day.expectedWh ?? 0), 0)
    : null;
  const first = energy[0]?.date;
  const last = energy[energy.length - 1]?.date;
  const period = first && last ? `${dayLabel(first, locale)} – ${dayLabel(last, locale)}` : "—";
  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard
          label={t("insights.detail.rangeEnergy")}
          value={actualWh === null ? "—" : formatEnergyWh(actualWh, locale)}
          footnote={period}
        />
        <StatCard
          label={t("insights.detail.rangeExpected")}
          value={expectedWh === null ? "—" : formatEnergyWh(expectedWh, locale)}
          footnote={t("insights.detail.expectedHint")}
        />
        <StatCard
          label={t("insights.detail.rangePr")}
          value={formatRatio(rangePerformanceRatio(energy), locale)}
          footnote={t("insights.detail.rangePrHint")}
        />
        <StatCard
          label={t("insights.detail.rangeYield")}
          value={formatKwhPerKw(
            actualWh === null ? null : energyYieldKwhPerKw(actualWh, record.capacity),
            locale,
          )}
          footnote={period}
        />
      </div>
      <Card>
        <Title>{t("insights.detail.energyTitle")}</Title>
        <p className="text-tremor-label text-tremor-content">
          {t("insights.detail.energySubtitle", { timeZone: record.timezone })}
        </p>
        <EnergyComparisonChart className="mt-4 h-72" energy={energy} />
      </Card>
      <Card>
        <Title>{t("insights.detail.prTitle")}</Title>
        <PerformanceRatioChart className="mt-4 h-60" energy={energy} />
      </Card>
      <Card>
        <details>
          <summary className="cursor-pointer text-tremor-default font-medium text-tremor-content-strong">
            {t("insights.detail.dailyTable")}
          </summary>
          <Table className="mt-4">
            <TableHead>
              <TableRow>
                <TableHeaderCell>{t("insights.detail.date")}</TableHeaderCell>
                <TableHeaderCell className="text-right">{t("insights.charts.actual")}</TableHeaderCell>
                <TableHeaderCell className="text-right">{t("insights.charts.expected")}</TableHeaderCell>
                <TableHeaderCell className="text-right">
                  {t("insights.fields.performanceRatio")}
                </TableHeaderCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {[...energy].reverse().map((day) => (
                <TableRow key={day.date}>
                  <TableCell>{day.date}</TableCell>
                  <TableCell className="text-right">
                    {day.energyWh === null ? "—" : formatEnergyWh(day.energyWh, locale)}
                  </TableCell>
                  <TableCell className="text-right">
                    {day.expectedWh === null ? "—" : formatEnergyWh(day.expectedWh, locale)}
                  </TableCell>
                  <TableCell className="text-right">{formatRatio(day.performanceRatio, locale)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </details>
      </Card>
    </div>
  );
}
