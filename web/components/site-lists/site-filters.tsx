import { useTranslation } from "react-i18next";
import type { SiteCountsAnswer } from "../../../schema/api/site-lists";
import { formatCount, localeFor } from "../../lib/format";
import { providerNames } from "../../lib/providers";
import { SITE_SORTS, SITE_STATUSES, type SiteListSearch } from "../../lib/site-list-search";
import {
  type ActiveFilter,
  ActiveFilters,
  FilterSelect,
  ListToolbar,
  SearchBox,
  StatusChips,
} from "./list-controls";

/** A change to the URL's search; a filter's change goes back to the first page. */
export type SearchPatch = Partial<SiteListSearch>;

const NONE = "-";

/**
 * The site screens' search, status chips with counts, filters, order and the filters chosen: what
 * is chosen lives in the URL (`search`), and every change goes through `onChange`.
 */
export function SiteFilters({
  search,
  counts,
  onChange,
}: {
  search: SiteListSearch;
  counts: SiteCountsAnswer | undefined;
  onChange: (patch: SearchPatch) => void;
}) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const statuses = search.status ?? [];
  const withCount = (label: string, count: number) => `${label} (${formatCount(count, locale)})`;
  const facet = (values: SiteCountsAnswer["countries"] | undefined, none: string) =>
    (values ?? []).map((value) => ({
      value: value.value,
      label: withCount(value.value === NONE ? none : (value.name ?? value.value), value.count),
    }));
  const providerName = (value: string) => providerNames[value as keyof typeof providerNames] ?? value;
  const portfolioName = (id: string) => counts?.portfolios.find((p) => p.value === id)?.name ?? id;
  const shown = (value: string, none: string) => (value === NONE ? none : value);

  const active: ActiveFilter[] = [];
  if (search.q) active.push({ key: "q", label: `“${search.q}”`, onRemove: () => onChange({ q: undefined }) });
  for (const status of statuses) {
    active.push({
      key: `status-${status}`,
      label: `${t("fleetLists.status")}: ${t(`fleetLists.statuses.${status}`)}`,
      onRemove: () => onChange({ status: statuses.filter((s) => s !== status) }),
    });
  }
  if (search.provider) {
    active.push({
      key: "provider",
      label: `${t("fleetLists.provider")}: ${providerName(search.provider)}`,
      onRemove: () => onChange({ provider: undefined }),
    });
  }
  if (search.portfolio) {
    active.push({
      key: "portfolio",
      label: `${t("fleetLists.portfolio")}: ${portfolioName(search.portfolio)}`,
      onRemove: () => onChange({ portfolio: undefined }),
    });
  }
  if (search.country) {
    active.push({
      key: "country",
      label: `${t("fleetLists.country")}: ${shown(search.country, t("fleetLists.noCountry"))}`,
      onRemove: () => onChange({ country: undefined }),
    });
  }
  if (search.label) {
    active.push({
      key: "label",
      label: `${t("fleetLists.label")}: ${shown(search.label, t("fleetLists.noLabel"))}`,
      onRemove: () => onChange({ label: undefined }),
    });
  }
  if (search.alerts) {
    active.push({
      key: "alerts",
      label: search.alerts === "open" ? t("fleetLists.withAlerts") : t("fleetLists.withoutAlerts"),
      onRemove: () => onChange({ alerts: undefined }),
    });
  }

  return (
    <div className="space-y-3">
      <ListToolbar>
        <SearchBox
          value={search.q ?? ""}
          label={t("fleetLists.searchSites")}
          onSearch={(q) => onChange({ q: q || undefined })}
        />
        <FilterSelect
          label={t("fleetLists.sort")}
          value={search.sort ?? "pr"}
          options={SITE_SORTS.map((sort) => ({ value: sort, label: t(`fleetLists.sorts.${sort}`) }))}
          onChange={(sort) =>
            onChange({ sort: sort === "pr" ? undefined : (sort as SiteListSearch["sort"]) })
          }
        />
      </ListToolbar>
      <StatusChips
        statuses={SITE_STATUSES}
        counts={counts?.byStatus}
        selected={statuses}
        onToggle={(status) =>
          onChange({
            status: statuses.includes(status) ? statuses.filter((s) => s !== status) : [...statuses, status],
          })
        }
      />
      <ListToolbar>
        <FilterSelect
          label={t("fleetLists.provider")}
          anyLabel={t("fleetLists.anyProvider")}
          value={search.provider}
          options={(counts?.providers ?? []).map((p) => ({
            value: p.value,
            label: withCount(providerName(p.value), p.count),
          }))}
          onChange={(provider) => onChange({ provider })}
        />
        <FilterSelect
          label={t("fleetLists.portfolio")}
          anyLabel={t("fleetLists.anyPortfolio")}
          value={search.portfolio}
          options={(counts?.portfolios ?? []).map((p) => ({
            value: p.value,
            label: withCount(p.name ?? p.value, p.count),
          }))}
          onChange={(portfolio) => onChange({ portfolio })}
        />
        <FilterSelect
          label={t("fleetLists.country")}
          anyLabel={t("fleetLists.anyCountry")}
          value={search.country}
          options={facet(counts?.countries, t("fleetLists.noCountry"))}
          onChange={(country) => onChange({ country })}
        />
        <FilterSelect
          label={t("fleetLists.label")}
          anyLabel={t("fleetLists.anyLabel")}
          value={search.label}
          options={facet(counts?.labels, t("fleetLists.noLabel"))}
          onChange={(label) => onChange({ label })}
        />
        <FilterSelect
          label={t("fleetLists.alerts")}
          anyLabel={t("fleetLists.anyAlerts")}
          value={search.alerts}
          options={[
            { value: "open", label: t("fleetLists.withAlerts") },
            { value: "none", label: t("fleetLists.withoutAlerts") },
          ]}
          onChange={(alerts) => onChange({ alerts: alerts as SiteListSearch["alerts"] })}
        />
      </ListToolbar>
      <ActiveFilters
        filters={active}
        onClear={() =>
          onChange({
            q: undefined,
            status: undefined,
            provider: undefined,
            portfolio: undefined,
            country: undefined,
            label: undefined,
            alerts: undefined,
          })
        }
      />
    </div>
  );
}
