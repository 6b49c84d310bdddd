import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { SiteGroup } from "../../../schema/api/site-lists";
import {
  formatCapacityKw,
  formatCount,
  formatEnergyWh,
  formatPowerW,
  formatRatio,
  localeFor,
} from "../../lib/format";
import { siteGroupsQueryOptions } from "../../lib/queries/site-lists";
import { SITE_GROUPS, type SiteListSearch } from "../../lib/site-list-search";
import { ErrorState } from "../ui/error-state";
import { Spinner } from "../ui/spinner";
import { FilterSelect } from "./list-controls";
import type { SearchPatch } from "./site-filters";

/**
 * The matching sites grouped by portfolio, country or label, each group with its totals; a
 * group's name filters the list to its sites.
 */
export function SiteGroups({
  search,
  onChange,
}: {
  search: SiteListSearch;
  onChange: (patch: SearchPatch) => void;
}) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const by = search.group ?? "portfolio";
  const groups = useQuery(siteGroupsQueryOptions(search, by));
  const filterFor = (group: SiteGroup): SearchPatch =>
    by === "portfolio"
      ? { portfolio: group.value, view: undefined }
      : by === "country"
        ? { country: group.value, view: undefined }
        : { label: group.value, view: undefined };
  const header = "px-3 py-2 text-left text-tremor-label font-medium text-tremor-content";
  const cell = "px-3 py-2 text-tremor-default text-tremor-content-emphasis tabular-nums";
  return (
    <div className="space-y-3">
      <FilterSelect
        label={t("fleetLists.groupBy")}
        value={by}
        options={SITE_GROUPS.map((key) => ({ value: key, label: t(`fleetLists.groupKeys.${key}`) }))}
        onChange={(group) => onChange({ group: group as SiteListSearch["group"] })}
      />
      {groups.isPending ? (
        <Spinner className="py-12" />
      ) : groups.isError ? (
        <ErrorState
          title={t("sites.loadFailed")}
          error={groups.error}
          onRetry={() => void groups.refetch()}
        />
      ) : (
        <div className="overflow-x-auto rounded-tremor-default border border-tremor-border bg-tremor-background">
          <table className="w-full min-w-[44rem]" aria-label={t("fleetLists.views.groups")}>
            <thead className="border-b border-tremor-border bg-tremor-background-muted">
              <tr>
                <th className={header}>{t("fleetLists.groupColumns.group")}</th>
                <th className={header}>{t("fleetLists.groupColumns.sites")}</th>
                <th className={header}>{t("fleetLists.groupColumns.status")}</th>
                <th className={header}>{t("fleetLists.groupColumns.capacity")}</th>
                <th className={header}>{t("fleetLists.groupColumns.power")}</th>
                <th className={header}>{t("fleetLists.groupColumns.today")}</th>
                <th className={header}>{t("fleetLists.groupColumns.pr")}</th>
                <th className={header}>{t("fleetLists.groupColumns.alerts")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-tremor-border">
              {groups.data.map((group) => {
                const name = group.name ?? t("fleetLists.noGroupValue");
                return (
                  <tr key={group.value}>
                    <td className={cell}>
                      <button
                        type="button"
                        className="font-medium text-tremor-brand hover:underline"
                        aria-label={t("fleetLists.showGroup", { name })}
                        onClick={() => onChange(filterFor(group))}
                      >
                        {name}
                      </button>
                    </td>
                    <td className={cell}>{formatCount(group.siteCount, locale)}</td>
                    <td className={cell}>
                      <span className="text-red-700">{formatCount(group.byStatus.fault, locale)}</span>
                      {" / "}
                      <span className="text-slate-600">{formatCount(group.byStatus.offline, locale)}</span>
                      {" / "}
                      <span className="text-emerald-700">{formatCount(group.byStatus.online, locale)}</span>
                    </td>
                    <td className={cell}>
                      {formatCapacityKw(Math.round(group.capacityKw * 10) / 10, locale)}
                    </td>
                    <td className={cell}>{formatPowerW(group.powerW, locale)}</td>
                    <td className={cell}>{formatEnergyWh(group.todayWh, locale)}</td>
                    <td className={cell}>{formatRatio(group.performanceRatio, locale)}</td>
                    <td className={cell}>{formatCount(group.openAlerts, locale)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
