import { useTranslation } from "react-i18next";
import { analyticsRanges } from "../../../schema/api/analytics";
import type { AnalyticsRange } from "../../lib/queries/analytics";

interface RangeSelectorProps {
  value: AnalyticsRange;
  onChange: (range: AnalyticsRange) => void;
}

/** 24 h, 7 days (the default), 30 days, 1 year. */
export function RangeSelector({ value, onChange }: RangeSelectorProps) {
  const { t } = useTranslation();
  return (
    <fieldset className="inline-flex rounded-tremor-default border border-tremor-border bg-tremor-background-subtle p-0.5">
      <legend className="sr-only">{t("insights.detail.rangeLabel")}</legend>
      {analyticsRanges.map((range) => {
        const selected = range === value;
        return (
          <button
            key={range}
            type="button"
            aria-pressed={selected}
            onClick={() => onChange(range)}
            className={`rounded-tremor-small px-3 py-1 text-tremor-default font-medium outline-none focus-visible:ring-2 focus-visible:ring-tremor-brand-muted ${
              selected
                ? "bg-tremor-background text-tremor-content-strong shadow-tremor-input"
                : "text-tremor-content hover:text-tremor-content-emphasis"
            }`}
          >
            {t(`insights.ranges.${range}`)}
          </button>
        );
      })}
    </fieldset>
  );
}
