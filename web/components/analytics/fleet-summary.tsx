import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import {
  formatCapacityKw,
  formatCount,
  formatEnergyWh,
  formatPercent,
  formatPowerW,
  localeFor,
} from "../../lib/format";
import { dashboardSummaryQueryOptions } from "../../lib/queries/dashboard";
import { StatCard } from "../ui/stat-card";

/** The fleet's totals as the API computed them: the dashboard's figures, meteronline left out. */
export function FleetSummary() {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const totals = useQuery(dashboardSummaryQueryOptions()).data?.summary.totals;
  // Until the totals are read (or if they cannot be), the cards say nothing rather than 0.
  const shown = (format: (value: number) => string, value: number | undefined) =>
    value === undefined ? "—" : format(value);
  return (
    <div>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard
          label={t("insights.list.systems")}
          value={shown((value) => formatCount(value, locale), totals?.systemCount)}
          footnote={totals ? formatCapacityKw(totals.capacityKw, locale) : undefined}
        />
        <StatCard
          label={t("insights.fields.currentPower")}
          value={shown((value) => formatPowerW(value, locale), totals?.powerW)}
        />
        <StatCard
          label={t("insights.fields.todayEnergy")}
          value={shown((value) => formatEnergyWh(value, locale), totals?.todayWh)}
        />
        <StatCard
          label={t("insights.list.averageEfficiency")}
          value={totals ? formatPercent(totals.meanEfficiencyPercent, locale) : "—"}
        />
      </div>
      <p className="mt-2 text-tremor-label text-tremor-content">{t("insights.list.totalsNote")}</p>
    </div>
  );
}
