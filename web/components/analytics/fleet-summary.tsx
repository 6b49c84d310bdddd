import { useTranslation } from "react-i18next";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import { formatCapacityKw, formatEnergyWh, formatPercent, formatPowerW, localeFor } from "../../lib/format";
import { StatCard } from "../ui/stat-card";

/** Meteronline systems are left out of analytics totals. */
export function fleetTotals(records: AnalyticsRecord[]) {
  const included = records.filter((record) => record.provider !== "meteronline");
  const capacityKw = included.reduce((sum, record) => sum + record.capacity, 0);
  const powerW = included.reduce((sum, record) => sum + record.currentPowerW, 0);
  const todayWh = included.reduce((sum, record) => sum + record.todayGenerationWh, 0);
  const efficiency =
    included.length === 0 ? null : included.reduce((sum, r) => sum + r.efficiency, 0) / included.length;
  return { systems: included.length, capacityKw, powerW, todayWh, efficiency };
}

export function FleetSummary({ records }: { records: AnalyticsRecord[] }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const totals = fleetTotals(records);
  return (
    <div>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard
          label={t("insights.list.systems")}
          value={String(totals.systems)}
          footnote={formatCapacityKw(totals.capacityKw, locale)}
        />
        <StatCard label={t("insights.fields.currentPower")} value={formatPowerW(totals.powerW, locale)} />
        <StatCard label={t("insights.fields.todayEnergy")} value={formatEnergyWh(totals.todayWh, locale)} />
        <StatCard
          label={t("insights.list.averageEfficiency")}
          value={formatPercent(totals.efficiency, locale)}
        />
      </div>
      <p className="mt-2 text-tremor-label text-tremor-content">{t("insights.list.totalsNote")}</p>
    </div>
  );
}
