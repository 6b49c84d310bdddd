import { useTranslation } from "react-i18next";
import type { LossesByCategory } from "../../../schema/api/losses";
import { type LossCategory, lossCategories } from "../../../schema/loss-categories";
import { formatKwh, formatPercent } from "../../lib/format";
import { formatMoney } from "../../lib/format-money";
import { categoryBarClasses } from "../../lib/losses";

interface WaterfallProps {
  expectedKwh: number;
  actualKwh: number;
  losses: LossesByCategory;
  weatherKwh: number;
  /** Each category's value, when the scope's prices give it; null otherwise. */
  values: Record<LossCategory, number> | null;
  currency: string | null;
  locale: string;
}

interface Step {
  key: string;
  label: string;
  hint?: string;
  kwh: number;
  /** Where the bar starts and ends on the scale, kWh. */
  start: number;
  end: number;
  barClass: string;
  value: number | null;
}

/**
 * Expected energy, each loss category taken from it in turn, and what was left: actual. The
 * weather's share sits beside, above expected (what a clear sky would have added), not among the
 * losses. A table, so each step's energy, share and value are read out; the bars are drawing.
 */
export function Waterfall({
  expectedKwh,
  actualKwh,
  losses,
  weatherKwh,
  values,
  currency,
  locale,
}: WaterfallProps) {
  const { t } = useTranslation();
  const scale = Math.max(expectedKwh + Math.max(weatherKwh, 0), actualKwh, 1e-9);
  let remaining = expectedKwh;
  const steps: Step[] = [
    {
      key: "expected",
      label: t("losses.expected"),
      kwh: expectedKwh,
      start: 0,
      end: expectedKwh,
      barClass: "bg-blue-500",
      value: null,
    },
    ...lossCategories.map((category): Step => {
      const kwh = losses[category];
      // A negative step (the system did better than its calibration) gives energy back: its bar
      // rises from where the last one ended.
      const step = {
        key: category,
        label: t(`losses.categories.${category}`),
        hint: t(`losses.categoryHints.${category}`),
        kwh,
        start: Math.min(remaining - kwh, remaining),
        end: Math.max(remaining - kwh, remaining),
        barClass: categoryBarClasses[category],
        value: values?.[category] ?? null,
      };
      remaining -= kwh;
      return step;
    }),
    {
      key: "actual",
      label: t("losses.actual"),
      kwh: actualKwh,
      start: 0,
      end: actualKwh,
      barClass: "bg-emerald-500",
      value: null,
    },
  ];
  const weather: Step = {
    key: "weather",
    label: t("losses.weather"),
    hint: t("losses.weatherHint"),
    kwh: weatherKwh,
    start: expectedKwh,
    end: expectedKwh + Math.max(weatherKwh, 0),
    barClass: "bg-sky-300",
    value: null,
  };
  const share = (kwh: number) => (expectedKwh > 0 ? formatPercent((kwh / expectedKwh) * 100, locale) : "—");
  const row = (step: Step, separated = false) => (
    <tr key={step.key} className={separated ? "border-t-2 border-dashed border-tremor-border" : undefined}>
      <th scope="row" className="py-1.5 pr-3 text-left font-medium text-tremor-content-strong">
        <span title={step.hint}>{step.label}</span>
      </th>
      <td className="w-1/2 py-1.5 pr-3" aria-hidden="true">
        <div className="relative h-4 rounded-tremor-small bg-tremor-background-subtle">
          <div
            className={`absolute inset-y-0 rounded-tremor-small ${step.barClass}`}
            style={{
              left: `${(Math.max(step.start, 0) / scale) * 100}%`,
              width: `${(Math.max(step.end - Math.max(step.start, 0), 0) / scale) * 100}%`,
            }}
          />
        </div>
      </td>
      <td className="py-1.5 pr-3 text-right tabular-nums">{formatKwh(step.kwh, locale)}</td>
      <td className="py-1.5 pr-3 text-right tabular-nums">{share(step.kwh)}</td>
      {currency ? (
        <td className="py-1.5 text-right tabular-nums">
          {step.value === null ? "" : formatMoney(step.value, currency, locale)}
        </td>
      ) : null}
    </tr>
  );
  return (
    <table className="w-full text-tremor-default text-tremor-content">
      <caption className="sr-only">{t("losses.waterfall.caption")}</caption>
      <thead>
        <tr className="text-tremor-label">
          <th scope="col" className="pb-2 text-left font-medium">
            {t("losses.waterfall.step")}
          </th>
          <td aria-hidden="true" />
          <th scope="col" className="pb-2 pr-3 text-right font-medium">
            {t("losses.waterfall.energy")}
          </th>
          <th scope="col" className="pb-2 pr-3 text-right font-medium">
            {t("losses.waterfall.share")}
          </th>
          {currency ? (
            <th scope="col" className="pb-2 text-right font-medium">
              {t("losses.waterfall.value")}
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {steps.map((step) => row(step))}
        {row(weather, true)}
      </tbody>
    </table>
  );
}
