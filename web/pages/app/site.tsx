import { RiArrowLeftLine, RiMapPinLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Card, Tab, TabGroup, TabList, TabPanel, TabPanels } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { EnhancedSite } from "../../../schema/api/sites";
import { can } from "../../../schema/roles";
import { LossesPanel } from "../../components/losses/losses-panel";
import { SystemOrientationTable } from "../../components/losses/orientation-editor";
import { SiteTariffEditor } from "../../components/losses/tariff-editor";
import { useCurrentProfile } from "../../components/profile-context";
import { NoOrganisation } from "../../components/sites/no-organisation";
import { SiteStatusBadge } from "../../components/sites/site-status-badge";
import { ButtonLink } from "../../components/ui/button-link";
import { EmptyState } from "../../components/ui/empty-state";
import { ErrorState } from "../../components/ui/error-state";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { ApiRequestError } from "../../lib/api";
import { formatCapacityKw, localeFor } from "../../lib/format";
import { useLossesStrings } from "../../lib/i18n/losses";
import { actorFromProfile } from "../../lib/permissions";
import { siteDetailQueryOptions } from "../../lib/queries/site-detail";

const siteTabs = ["overview", "losses", "price"] as const;
type SiteTab = (typeof siteTabs)[number];

function BackButton() {
  const { t } = useTranslation();
  return (
    <ButtonLink to="/app/sites" variant="secondary">
      <RiArrowLeftLine className="h-4 w-4" aria-hidden="true" />
      {t("losses.site.back")}
    </ButtonLink>
  );
}

interface SitePageProps {
  siteId: string;
  /** The `?tab=` asked for; anything but a tab's name opens the overview. */
  tab: string | undefined;
  onTabChange: (tab: SiteTab) => void;
}

/** One site: its facts and systems with their orientation, its losses, and its price of energy. */
export function SitePage({ siteId, tab: asked, onTabChange }: SitePageProps) {
  const tab = siteTabs.find((value) => value === asked) ?? "overview";
  useLossesStrings();
  const { t } = useTranslation();
  const profile = useCurrentProfile();
  const actor = actorFromProfile(profile);
  const canRead = can(actor, "org:read");
  const query = useQuery({ ...siteDetailQueryOptions(siteId), enabled: canRead });

  if (!canRead) {
    return (
      <>
        <PageHeader title={t("pages.site")} />
        <NoOrganisation />
      </>
    );
  }
  if (query.isPending) return <Spinner className="py-16" />;
  if (query.isError) {
    const missing = query.error instanceof ApiRequestError && query.error.status === 404;
    return (
      <>
        <PageHeader title={t("pages.site")} actions={<BackButton />} />
        {missing ? (
          <EmptyState
            icon={RiMapPinLine}
            title={t("losses.site.notFoundTitle")}
            description={t("losses.site.notFoundBody")}
          >
            <BackButton />
          </EmptyState>
        ) : (
          <ErrorState
            title={t("losses.site.loadFailed")}
            error={query.error}
            onRetry={() => void query.refetch()}
          />
        )}
      </>
    );
  }
  const site = query.data;
  return (
    <>
      <PageHeader title={site.name} description={site.location} actions={<BackButton />} />
      <TabGroup
        index={siteTabs.indexOf(tab)}
        onIndexChange={(index) => onTabChange(siteTabs[index] ?? "overview")}
      >
        <TabList>
          {siteTabs.map((value) => (
            <Tab key={value}>{t(`losses.site.tabs.${value}`)}</Tab>
          ))}
        </TabList>
        {/* Tremor keeps every panel mounted; only the open tab's content is rendered. */}
        <TabPanels className="mt-6">
          <TabPanel>
            {tab === "overview" ? <Overview site={site} canManage={can(actor, "sites:manage")} /> : null}
          </TabPanel>
          <TabPanel>
            {tab === "losses" ? (
              <LossesPanel
                scope={{ siteId: site.id }}
                timeZone={site.timezone}
                onSetPrice={can(actor, "sites:manage") ? () => onTabChange("price") : undefined}
              />
            ) : null}
          </TabPanel>
          <TabPanel>
            {tab === "price" ? (
              <Card>
                <SiteTariffEditor siteId={site.id} canManage={can(actor, "sites:manage")} />
              </Card>
            ) : null}
          </TabPanel>
        </TabPanels>
      </TabGroup>
    </>
  );
}

function Overview({ site, canManage }: { site: EnhancedSite; canManage: boolean }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  return (
    <div className="space-y-6">
      <Card>
        <dl className="flex flex-wrap gap-x-8 gap-y-3 text-tremor-default">
          <Fact label={t("losses.site.location")} value={site.location} />
          <Fact label={t("losses.site.capacity")} value={formatCapacityKw(site.capacity, locale)} />
          <Fact label={t("losses.site.timezone")} value={site.timezone} />
          <div>
            <dt className="text-tremor-label text-tremor-content">{t("losses.site.status")}</dt>
            <dd className="mt-0.5">
              <SiteStatusBadge status={site.status} />
            </dd>
          </div>
        </dl>
      </Card>
      <Card>
        <h2 className="mb-3 text-tremor-title font-semibold text-tremor-content-strong">
          {t("losses.site.systems")}
        </h2>
        <SystemOrientationTable site={site} canManage={canManage} />
      </Card>
    </div>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-tremor-label text-tremor-content">{label}</dt>
      <dd className="break-words font-medium text-tremor-content-strong">{value}</dd>
    </div>
  );
}
