import { RiLeafLine, RiPlantLine, RiSunLine } from "@remixicon/react";
import { Card } from "@tremor/react";
import type { ComponentType } from "react";
import { useTranslation } from "react-i18next";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import { formatEnergyWh, formatKg, formatNumber, localeFor } from "../../lib/format";
import { dayLabel } from "./charts";
import { CO2_KG_PER_KWH, co2AvoidedKg, rangeEnergyWh, TREES_PER_KWH, treesEquivalent } from "./metrics";

/** CO2 avoided at 0.92 kg per kWh and trees at 0.045 per kWh, over the range's energy. */
export function EnvironmentalTab({ record }: { record: AnalyticsRecord }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const energy = record.series?.energy ?? [];
  const energyWh = rangeEnergyWh(energy) ?? 0;
  const first = energy[0]?.date;
  const last = energy[energy.length - 1]?.date;
  const period = first && last ? `${dayLabel(first, locale)} – ${dayLabel(last, locale)}` : "—";
  return (
    <div className="space-y-4">
      <div className="grid gap-4 md:grid-cols-3">
        <Impact
          icon={RiSunLine}
          label={t("insights.environment.energy")}
          value={formatEnergyWh(energyWh, locale)}
          note={period}
        />
        <Impact
          icon={RiLeafLine}
          label={t("insights.environment.co2")}
          value={formatKg(co2AvoidedKg(energyWh), locale)}
          note={t("insights.environment.co2Factor", { factor: formatNumber(CO2_KG_PER_KWH, locale, 2) })}
        />
        <Impact
          icon={RiPlantLine}
          label={t("insights.environment.trees")}
          value={formatNumber(treesEquivalent(energyWh), locale, 1)}
          note={t("insights.environment.treesFactor", { factor: formatNumber(TREES_PER_KWH, locale, 3) })}
        />
      </div>
      <p className="text-tremor-label text-tremor-content">{t("insights.environment.basis")}</p>
    </div>
  );
}

interface ImpactProps {
  icon: ComponentType<{ className?: string }>;
  label: string;
  value: string;
  note: string;
}

function Impact({ icon: Icon, label, value, note }: ImpactProps) {
  return (
    <Card decoration="left" decorationColor="emerald">
      <div className="flex items-center gap-2 text-tremor-content">
        <Icon className="h-5 w-5 text-emerald-600" aria-hidden="true" />
        <span className="text-tremor-default">{label}</span>
      </div>
      <p className="mt-2 text-tremor-metric font-semibold text-tremor-content-strong">{value}</p>
      <p className="mt-1 text-tremor-label text-tremor-content">{note}</p>
    </Card>
  );
}
