import { useTranslation } from "react-i18next";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import { providerNames } from "../../lib/providers";
import { type ProviderFilter, providerFilters } from "./metrics";

interface ProviderFilterBarProps {
  records: AnalyticsRecord[];
  /** The server's counts over the whole fleet; without them the records are counted. */
  counts?: { all: number; providers: Record<string, number> };
  value: ProviderFilter;
  onChange: (filter: ProviderFilter) => void;
}

/** All plus one button per provider, each with the number of systems it holds. */
export function ProviderFilterBar({ records, counts, value, onChange }: ProviderFilterBarProps) {
  const { t } = useTranslation();
  const options: { filter: ProviderFilter; label: string; count: number }[] = [
    { filter: "all", label: t("insights.list.all"), count: counts?.all ?? records.length },
    ...providerFilters.map((provider) => ({
      filter: provider,
      label: providerNames[provider],
      count: counts?.providers[provider] ?? records.filter((record) => record.provider === provider).length,
    })),
  ];
  return (
    <fieldset className="flex flex-wrap gap-2">
      <legend className="sr-only">{t("insights.list.filterLabel")}</legend>
      {options.map((option) => {
        const selected = option.filter === value;
        return (
          <button
            key={option.filter}
            type="button"
            aria-pressed={selected}
            onClick={() => onChange(option.filter)}
            className={`inline-flex items-center gap-2 rounded-tremor-full border px-3 py-1.5 text-tremor-default font-medium outline-none transition-colors focus-visible:ring-2 focus-visible:ring-tremor-brand-muted ${
              selected
                ? "border-tremor-brand bg-tremor-brand text-tremor-brand-inverted"
                : "border-tremor-border bg-tremor-background text-tremor-content-emphasis hover:bg-tremor-background-subtle"
            }`}
          >
            {option.label}
            <span
              aria-hidden="true"
              className={`rounded-tremor-full px-1.5 text-tremor-label ${
                selected ? "bg-white/20" : "bg-tremor-background-subtle text-tremor-content"
              }`}
            >
              {option.count}
            </span>
          </button>
        );
      })}
    </fieldset>
  );
}
