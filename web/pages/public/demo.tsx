import { RiArrowLeftLine, RiPauseLine, RiPlayLine, RiRefreshLine, RiRocketLine } from "@remixicon/react";
import { Link } from "@tanstack/react-router";
import { Badge, Button, Card, Tab, TabGroup, TabList, TabPanel, TabPanels } from "@tremor/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DemoAnalyticsTab } from "../../components/demo/analytics-tab";
import { DemoOverviewTab } from "../../components/demo/overview-tab";
import { DemoSettingsTab } from "../../components/demo/settings-tab";
import { DemoSitesTab } from "../../components/demo/sites-tab";
import { DemoSummaryCards } from "../../components/demo/summary-cards";
import { useDemoSimulation } from "../../components/demo/use-demo-simulation";
import { Logo } from "../../components/layout/logo";
import { PublicFooter } from "../../components/layout/public-footer";
import { ButtonLink } from "../../components/ui/button-link";
import { DEMO_TIME_ZONE } from "../../lib/demo/simulation";
import { formatDateTime, localeFor } from "../../lib/format";

/** The public demo: the product's own cards and charts over a deterministic in-browser simulation. */
export function DemoPage() {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const demo = useDemoSimulation();
  const { snapshot, live } = demo;
  const [tab, setTab] = useState(0);
  return (
    <div className="flex min-h-screen flex-col bg-tremor-background-muted">
      <header className="sticky top-0 z-20 border-b border-tremor-border bg-tremor-background/90 backdrop-blur">
        <div className="mx-auto flex min-h-16 max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-2 sm:px-6">
          <div className="flex items-center gap-3">
            <ButtonLink to="/" variant="light" className="px-2">
              <RiArrowLeftLine className="h-4 w-4" aria-hidden="true" />
              {t("common.backHome")}
            </ButtonLink>
            <Link to="/" aria-label={t("publicNav.home")} className="hidden sm:block">
              <Logo />
            </Link>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <Button
              variant="secondary"
              icon={live ? RiPauseLine : RiPlayLine}
              onClick={demo.toggleLive}
              aria-pressed={live}
              title={live ? t("insights.demo.pauseHint") : t("insights.demo.playHint")}
            >
              <span className="inline-flex items-center gap-1.5">
                {live ? (
                  <span aria-hidden="true" className="h-2 w-2 animate-pulse rounded-full bg-emerald-500" />
                ) : null}
                {live ? t("insights.demo.live") : t("insights.demo.paused")}
              </span>
            </Button>
            <Button variant="secondary" icon={RiRefreshLine} onClick={demo.reset}>
              {t("insights.demo.reset")}
            </Button>
            <ButtonLink to="/login">{t("demo.tryLive")}</ButtonLink>
          </div>
        </div>
      </header>
      <main className="mx-auto w-full max-w-7xl flex-1 space-y-6 px-4 py-8 sm:px-6">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <div className="flex items-center gap-2">
              <h1 className="text-2xl font-semibold text-tremor-content-strong">
                {t("insights.demo.title")}
              </h1>
              <Badge color="violet" size="xs">
                {t("insights.demo.simulated")}
              </Badge>
            </div>
            <p className="mt-1 text-tremor-default text-tremor-content">{t("insights.demo.subtitle")}</p>
          </div>
          <p className="text-tremor-default text-tremor-content-emphasis" aria-live="polite">
            {t("insights.demo.clock", {
              time: formatDateTime(snapshot.time, { locale, timeZone: DEMO_TIME_ZONE }),
            })}
          </p>
        </div>
        <DemoSummaryCards snapshot={snapshot} />
        {/* Tremor keeps every panel mounted; only the open tab's charts are rendered. */}
        <TabGroup index={tab} onIndexChange={setTab}>
          <TabList>
            <Tab>{t("insights.tabs.overview")}</Tab>
            <Tab>{t("insights.demo.tabs.sites")}</Tab>
            <Tab>{t("insights.demo.tabs.analytics")}</Tab>
            <Tab>{t("insights.demo.tabs.settings")}</Tab>
          </TabList>
          <TabPanels className="mt-6">
            <TabPanel>
              {tab === 0 ? (
                <DemoOverviewTab snapshot={snapshot} selectedSiteId={demo.selectedSiteId} />
              ) : null}
            </TabPanel>
            <TabPanel>
              {tab === 1 ? (
                <DemoSitesTab
                  snapshot={snapshot}
                  selectedSiteId={demo.selectedSiteId}
                  onSelect={demo.selectSite}
                />
              ) : null}
            </TabPanel>
            <TabPanel>
              {tab === 2 ? (
                <DemoAnalyticsTab snapshot={snapshot} selectedSiteId={demo.selectedSiteId} />
              ) : null}
            </TabPanel>
            <TabPanel>{tab === 3 ? <DemoSettingsTab time={snapshot.time} /> : null}</TabPanel>
          </TabPanels>
        </TabGroup>
        <Card className="flex flex-col items-center gap-4 bg-tremor-brand-faint py-10 text-center">
          <RiRocketLine className="h-10 w-10 text-tremor-brand" aria-hidden="true" />
          <h2 className="text-xl font-semibold text-tremor-content-strong">{t("insights.demo.ctaTitle")}</h2>
          <p className="max-w-xl text-tremor-default text-tremor-content">{t("insights.demo.ctaBody")}</p>
          <ButtonLink to="/login">{t("insights.demo.startTrial")}</ButtonLink>
        </Card>
      </main>
      <PublicFooter />
    </div>
  );
}
