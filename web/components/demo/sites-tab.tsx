import { Card, Title } from "@tremor/react";
import { useTranslation } from "react-i18next";
import {
  DEMO_SEED,
  DEMO_TIME_ZONE,
  type DemoSnapshot,
  demoPowerSeries,
  demoSites,
} from "../../lib/demo/simulation";
import { formatCapacityKw, formatEnergyWh, formatPercent, formatPowerW, localeFor } from "../../lib/format";
import { providerNames } from "../../lib/providers";
import { PowerChart } from "../analytics/charts";
import { DemoStatusBadge } from "./demo-badges";

interface DemoSitesTabProps {
  snapshot: DemoSnapshot;
  selectedSiteId: string;
  onSelect: (siteId: string) => void;
}

/** Clickable site cards (the selected one highlighted) and the selected site's power today. */
export function DemoSitesTab({ snapshot, selectedSiteId, onSelect }: DemoSitesTabProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const selected = demoSites.find((site) => site.id === selectedSiteId);
  const selectedName = snapshot.sites.find((site) => site.id === selectedSiteId)?.name ?? "";
  return (
    <div className="space-y-6">
      <div className="grid gap-4 md:grid-cols-3">
        {snapshot.sites.map((site) => {
          const isSelected = site.id === selectedSiteId;
          return (
            <button
              key={site.id}
              type="button"
              aria-pressed={isSelected}
              onClick={() => onSelect(site.id)}
              className={`rounded-tremor-default border bg-tremor-background p-5 text-left shadow-tremor-card outline-none transition focus-visible:ring-2 focus-visible:ring-tremor-brand-muted ${
                isSelected
                  ? "border-tremor-brand ring-2 ring-tremor-brand"
                  : "border-tremor-border hover:border-tremor-brand-muted"
              }`}
            >
              <span className="flex items-start justify-between gap-2">
                <span>
                  <span className="block text-tremor-title font-semibold text-tremor-content-strong">
                    {site.name}
                  </span>
                  <span className="block text-tremor-label text-tremor-content">
                    {site.location} · {providerNames[site.provider]}
                  </span>
                </span>
                <DemoStatusBadge status={site.status} />
              </span>
              <span className="mt-4 grid grid-cols-2 gap-x-4 gap-y-2 text-tremor-default">
                <Figure
                  label={t("insights.fields.capacity")}
                  value={formatCapacityKw(site.capacity, locale)}
                />
                <Figure
                  label={t("insights.fields.currentPower")}
                  value={formatPowerW(site.currentPower * 1000, locale)}
                />
                <Figure
                  label={t("insights.fields.todayEnergy")}
                  value={formatEnergyWh(site.dailyGeneration * 1000, locale)}
                />
                <Figure
                  label={t("insights.demo.month")}
                  value={formatEnergyWh(site.monthlyGeneration * 1000, locale)}
                />
                <Figure
                  label={t("insights.fields.efficiency")}
                  value={formatPercent(site.efficiency, locale)}
                />
                <Figure label={t("insights.demo.alertsLabel")} value={String(site.alerts.length)} />
              </span>
            </button>
          );
        })}
      </div>
      {selected ? (
        <Card>
          <Title>{t("insights.demo.sitePowerTitle", { site: selectedName })}</Title>
          <PowerChart
            className="mt-4 h-64"
            power={demoPowerSeries(DEMO_SEED, selected, snapshot.time)}
            range="24h"
            timeZone={DEMO_TIME_ZONE}
          />
        </Card>
      ) : null}
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <span>
      <span className="block text-tremor-label text-tremor-content">{label}</span>
      <span className="block font-medium text-tremor-content-strong">{value}</span>
    </span>
  );
}
