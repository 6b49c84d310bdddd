import { useTranslation } from "react-i18next";
import type { DemoSnapshot } from "../../lib/demo/simulation";
import { formatCapacityKw, formatEnergyWh, formatPercent, formatPowerW, localeFor } from "../../lib/format";
import { StatCard } from "../ui/stat-card";

/** The demo's four cards: capacity, live generation (% of capacity), today's generation, system health. */
export function DemoSummaryCards({ snapshot }: { snapshot: DemoSnapshot }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const { summary, sites } = snapshot;
  const percentOfCapacity =
    summary.totalCapacity > 0 ? (summary.totalCurrentPower / summary.totalCapacity) * 100 : null;
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard
        label={t("insights.demo.cards.capacity")}
        value={formatCapacityKw(summary.totalCapacity, locale)}
        footnote={t("insights.demo.cards.capacityNote", { count: sites.length })}
      />
      <StatCard
        label={t("insights.demo.cards.live")}
        value={formatPowerW(summary.totalCurrentPower * 1000, locale)}
        footnote={t("insights.demo.cards.liveNote", { percent: formatPercent(percentOfCapacity, locale) })}
      />
      <StatCard
        label={t("insights.demo.cards.today")}
        value={formatEnergyWh(summary.todayGeneration * 1000, locale)}
        footnote={t("insights.demo.cards.todayNote", {
          energy: formatEnergyWh(summary.monthlyGeneration * 1000, locale),
        })}
      />
      <StatCard
        label={t("insights.demo.cards.health")}
        value={t("insights.demo.cards.healthValue", { active: summary.activeSites, total: sites.length })}
        footnote={t("insights.demo.cards.healthNote", { count: summary.totalAlerts })}
      />
    </div>
  );
}
