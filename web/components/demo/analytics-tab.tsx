import { AreaChart, Card, DonutChart, Title } from "@tremor/react";
import { useTranslation } from "react-i18next";
import {
  DEMO_SEED,
  DEMO_TIME_ZONE,
  type DemoSnapshot,
  demoEnergySeries,
  demoPowerSeries,
  demoSites,
} from "../../lib/demo/simulation";
import { formatKw, formatKwh, localeFor } from "../../lib/format";
import { EnergyComparisonChart, PerformanceRatioChart } from "../analytics/charts";

interface DemoAnalyticsProps {
  snapshot: DemoSnapshot;
  selectedSiteId: string;
}

/** Real charts of the simulated data: the fleet's power today, the selected site's week against expectation. */
export function DemoAnalyticsTab({ snapshot, selectedSiteId }: DemoAnalyticsProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const clock = new Intl.DateTimeFormat(locale, {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: DEMO_TIME_ZONE,
  });
  const series = demoSites.map((site) => ({ site, points: demoPowerSeries(DEMO_SEED, site, snapshot.time) }));
  const first = series[0]?.points ?? [];
  const fleetPower = first.map((point, index) => {
    const row: Record<string, string | number> = { time: clock.format(new Date(point.time)) };
    for (const { site, points } of series) row[site.name] = (points[index]?.powerW ?? 0) / 1000;
    return row;
  });
  const selected = demoSites.find((site) => site.id === selectedSiteId) ?? demoSites[0];
  const selectedName = selected?.name ?? "";
  const week = selected ? demoEnergySeries(DEMO_SEED, selected, snapshot.time, 7) : [];
  const share = snapshot.sites.map((site) => ({ name: site.name, energy: site.dailyGeneration }));
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card className="lg:col-span-2">
        <Title>{t("insights.demo.fleetPowerTitle")}</Title>
        <p className="text-tremor-label text-tremor-content">{t("insights.demo.fleetPowerNote")}</p>
        <AreaChart
          className="mt-4 h-72"
          data={fleetPower}
          index="time"
          categories={demoSites.map((site) => site.name)}
          colors={["amber", "blue", "emerald"]}
          stack
          valueFormatter={(value) => formatKw(value, locale)}
          yAxisWidth={72}
          showAnimation={false}
          noDataText={t("insights.charts.noPower")}
        />
      </Card>
      <Card>
        <Title>{t("insights.demo.shareTitle")}</Title>
        <DonutChart
          className="mt-6 h-52"
          data={share}
          index="name"
          category="energy"
          colors={["amber", "blue", "emerald"]}
          valueFormatter={(value) => formatKwh(value, locale)}
          showAnimation={false}
        />
        <ul className="mt-4 space-y-1 text-tremor-label text-tremor-content">
          {share.map((entry) => (
            <li key={entry.name} className="flex justify-between gap-2">
              <span>{entry.name}</span>
              <span>{formatKwh(entry.energy, locale)}</span>
            </li>
          ))}
        </ul>
      </Card>
      <Card className="lg:col-span-2">
        <Title>{t("insights.demo.weekTitle", { site: selectedName })}</Title>
        <p className="text-tremor-label text-tremor-content">{t("insights.demo.weekNote")}</p>
        <EnergyComparisonChart className="mt-4 h-64" energy={week} />
      </Card>
      <Card>
        <Title>{t("insights.detail.prTitle")}</Title>
        <PerformanceRatioChart className="mt-4 h-64" energy={week} />
      </Card>
    </div>
  );
}
