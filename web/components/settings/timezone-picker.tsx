import { useQuery } from "@tanstack/react-query";
import { TextInput } from "@tremor/react";
import { useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Timezone } from "../../../schema/api/preferences";
import { timezonesQueryOptions } from "../../lib/queries/user";
import { ErrorState } from "../ui/error-state";

interface TimezonePickerProps {
  value: string;
  onChange: (timezone: string) => void;
}

/** The server's labels may already carry the offset ("UTC (UTC+00:00)"); it is not repeated. */
function describeZone(zone: Timezone): string {
  return zone.label.includes(zone.offset) ? zone.label : `${zone.label} (${zone.offset})`;
}

function groupByRegion(zones: Timezone[]): [string, Timezone[]][] {
  const groups = new Map<string, Timezone[]>();
  for (const zone of zones) {
    const group = groups.get(zone.region);
    if (group) group.push(zone);
    else groups.set(zone.region, [zone]);
  }
  return [...groups.entries()];
}

/** ~420 zones: a search box over a 15rem scrolling list of radio buttons grouped by region. */
export function TimezonePicker({ value, onChange }: TimezonePickerProps) {
  const { t } = useTranslation();
  const timezonesQuery = useQuery(timezonesQueryOptions());
  const [search, setSearch] = useState("");
  const deferredSearch = useDeferredValue(search);
  const listRef = useRef<HTMLDivElement>(null);

  const groups = useMemo(() => {
    const needle = deferredSearch.trim().toLowerCase();
    const zones = (timezonesQuery.data ?? []).filter(
      (zone) =>
        needle === "" ||
        zone.label.toLowerCase().includes(needle) ||
        zone.value.toLowerCase().includes(needle) ||
        zone.offset.toLowerCase().includes(needle),
    );
    return groupByRegion(zones);
  }, [timezonesQuery.data, deferredSearch]);

  const selected = timezonesQuery.data?.find((zone) => zone.value === value);

  useEffect(() => {
    if (!timezonesQuery.data) return;
    const checked = listRef.current?.querySelector<HTMLInputElement>("input:checked");
    checked?.scrollIntoView?.({ block: "nearest" });
  }, [timezonesQuery.data]);

  return (
    <fieldset className="space-y-1.5">
      <legend className="mb-1.5 text-tremor-default font-medium text-tremor-content-strong">
        {t("settings.notifications.timezone")}
      </legend>
      <p className="text-tremor-label text-tremor-content">{selected ? describeZone(selected) : value}</p>
      {timezonesQuery.isPending ? (
        <p className="text-tremor-default text-tremor-content">
          {t("settings.notifications.loadingTimezones")}
        </p>
      ) : timezonesQuery.isError ? (
        <ErrorState
          title={t("settings.notifications.timezonesFailed")}
          error={timezonesQuery.error}
          onRetry={() => void timezonesQuery.refetch()}
        />
      ) : (
        <>
          <TextInput
            type="search"
            aria-label={t("settings.notifications.timezoneSearch")}
            placeholder={t("settings.notifications.timezoneSearch")}
            value={search}
            onValueChange={setSearch}
          />
          <div
            ref={listRef}
            className="h-60 overflow-y-auto rounded-tremor-default border border-tremor-border bg-tremor-background"
          >
            {groups.length === 0 ? (
              <p className="p-3 text-tremor-default text-tremor-content">
                {t("settings.notifications.noTimezones")}
              </p>
            ) : (
              groups.map(([region, zones]) => (
                <div key={region}>
                  <p className="sticky top-0 bg-tremor-background-muted px-3 py-1 text-tremor-label font-semibold uppercase tracking-wide text-tremor-content">
                    {region}
                  </p>
                  {zones.map((zone) => (
                    <label
                      key={zone.value}
                      className="flex cursor-pointer items-center justify-between gap-3 px-3 py-1.5 text-tremor-default text-tremor-content-emphasis hover:bg-tremor-background-subtle has-[:checked]:bg-tremor-brand-faint"
                    >
                      <span className="flex items-center gap-2">
                        <input
                          type="radio"
                          name="timezone"
                          value={zone.value}
                          checked={zone.value === value}
                          onChange={() => onChange(zone.value)}
                          className="accent-tremor-brand"
                        />
                        {zone.label}
                      </span>
                      <span className="shrink-0 font-mono text-tremor-label text-tremor-content">
                        {zone.offset}
                      </span>
                    </label>
                  ))}
                </div>
              ))
            )}
          </div>
        </>
      )}
    </fieldset>
  );
}
