import { RiCloseLine, RiSearchLine } from "@remixicon/react";
import { type ReactNode, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatCount, localeFor } from "../../lib/format";
import { NativeSelect } from "../ui/native-select";

/*
 * The pieces every fleet list shows above and below its rows: a search box that asks the server as
 * the user pauses, chips of counts per status, selects of the other filters, the filters chosen
 * (each removable), and the pages.
 */

/** A search box: the value goes to `onSearch` once typing pauses (the URL, then the server). */
export function SearchBox({
  value,
  label,
  onSearch,
}: {
  value: string;
  label: string;
  onSearch: (value: string) => void;
}) {
  const [text, setText] = useState(value);
  // The URL changed elsewhere (a chip removed, back/forward): the box follows.
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => onSearch(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <label className="relative block min-w-[16rem] flex-1">
      <span className="sr-only">{label}</span>
      <RiSearchLine
        className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-tremor-content"
        aria-hidden="true"
      />
      <input
        type="search"
        value={text}
        placeholder={label}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") onSearch(text.trim());
        }}
        className="w-full rounded-tremor-default border border-tremor-border bg-tremor-background py-2 pl-9 pr-3 text-tremor-default text-tremor-content-emphasis shadow-tremor-input outline-none placeholder:text-tremor-content focus:border-tremor-brand-subtle focus:ring-2 focus:ring-tremor-brand-muted"
      />
    </label>
  );
}

const statusTone: Record<string, string> = {
  fault: "border-red-300 bg-red-50 text-red-800 has-[:checked]:bg-red-600 has-[:checked]:text-white",
  offline:
    "border-slate-300 bg-slate-50 text-slate-700 has-[:checked]:bg-slate-600 has-[:checked]:text-white",
  stale: "border-amber-300 bg-amber-50 text-amber-800 has-[:checked]:bg-amber-600 has-[:checked]:text-white",
  online:
    "border-emerald-300 bg-emerald-50 text-emerald-800 has-[:checked]:bg-emerald-600 has-[:checked]:text-white",
};

/** One check chip per status with its count; checked ones filter the list. */
export function StatusChips<S extends string>({
  statuses,
  counts,
  selected,
  onToggle,
}: {
  statuses: readonly S[];
  counts: Partial<Record<S, number>> | undefined;
  selected: readonly S[];
  onToggle: (status: S) => void;
}) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  return (
    <fieldset className="flex flex-wrap gap-2">
      <legend className="sr-only">{t("fleetLists.status")}</legend>
      {statuses.map((status) => {
        const count = counts?.[status];
        const name = t(`fleetLists.statuses.${status as "fault"}`);
        return (
          <label
            key={status}
            className={`cursor-pointer rounded-full border px-3 py-1 text-tremor-default font-medium focus-within:ring-2 focus-within:ring-tremor-brand-muted ${statusTone[status] ?? ""}`}
          >
            <input
              type="checkbox"
              className="sr-only"
              checked={selected.includes(status)}
              onChange={() => onToggle(status)}
            />
            {count === undefined
              ? name
              : t("fleetLists.statusCount", { status: name, count: formatCount(count, locale) as never })}
          </label>
        );
      })}
    </fieldset>
  );
}

export interface SelectOption {
  value: string;
  label: string;
}

/** A labelled select whose first option means "any". */
export function FilterSelect({
  label,
  anyLabel,
  value,
  options,
  onChange,
}: {
  label: string;
  anyLabel?: string;
  value: string | undefined;
  options: SelectOption[];
  onChange: (value: string | undefined) => void;
}) {
  const id = useId();
  return (
    <div className="flex min-w-[10rem] flex-col gap-1 text-tremor-label text-tremor-content">
      <label htmlFor={id}>{label}</label>
      <NativeSelect
        id={id}
        value={value ?? ""}
        onChange={(event) => onChange(event.target.value || undefined)}
      >
        {anyLabel ? <option value="">{anyLabel}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

export interface ActiveFilter {
  key: string;
  /** What the chip says: "Status: Fault". */
  label: string;
  onRemove: () => void;
}

/** The filters chosen, each removable, and one button to remove them all. */
export function ActiveFilters({ filters, onClear }: { filters: ActiveFilter[]; onClear: () => void }) {
  const { t } = useTranslation();
  if (filters.length === 0) return null;
  return (
    <ul aria-label={t("fleetLists.activeFilters")} className="flex flex-wrap items-center gap-2">
      {filters.map((filter) => (
        <li key={filter.key}>
          <button
            type="button"
            onClick={filter.onRemove}
            aria-label={t("fleetLists.removeFilter", { name: filter.label })}
            className="inline-flex items-center gap-1 rounded-full bg-tremor-brand-muted px-3 py-1 text-tremor-label font-medium text-tremor-brand-emphasis"
          >
            {filter.label}
            <RiCloseLine className="h-3.5 w-3.5" aria-hidden="true" />
          </button>
        </li>
      ))}
      <li>
        <button
          type="button"
          onClick={onClear}
          className="text-tremor-label text-tremor-content underline-offset-2 hover:underline"
        >
          {t("fleetLists.clearFilters")}
        </button>
      </li>
    </ul>
  );
}

/** "Page 2 of 417" with previous and next. */
export function Pager({
  page,
  pageCount,
  onPage,
}: {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  if (pageCount <= 1) return null;
  const button =
    "rounded-tremor-default border border-tremor-border px-3 py-1.5 text-tremor-default text-tremor-content-emphasis disabled:cursor-not-allowed disabled:opacity-50";
  return (
    <nav aria-label={t("fleetLists.pages")} className="flex items-center justify-center gap-3 pt-2">
      <button type="button" className={button} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t("fleetLists.previous")}
      </button>
      <span className="text-tremor-default text-tremor-content">
        {t("fleetLists.pageOf", {
          page: formatCount(page, locale) as never,
          pages: formatCount(pageCount, locale) as never,
        })}
      </span>
      <button type="button" className={button} disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
        {t("fleetLists.next")}
      </button>
    </nav>
  );
}

/** The bar above a list: its controls in a wrapping row. */
export function ListToolbar({ children }: { children: ReactNode }) {
  return <div className="flex flex-wrap items-end gap-3">{children}</div>;
}
