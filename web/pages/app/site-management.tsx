import { RiAddLine, RiBuilding4Line } from "@remixicon/react";
import { useTranslation } from "react-i18next";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { ButtonLink } from "../../components/ui/button-link";
import { EmptyState } from "../../components/ui/empty-state";
import { PageHeader } from "../../components/ui/page-header";
import { StatCard } from "../../components/ui/stat-card";
import { formatCapacityKw, formatCount, localeFor } from "../../lib/format";

export function SiteManagementPage() {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  // No site exists until sites can be created from provider systems, so the totals are zero.
  const totalSites = 0;
  const totalSystems = 0;
  const totalCapacityKw = 0;
  return (
    <>
      <PageHeader
        title={t("pages.siteManagement")}
        description={t("siteManagement.subtitle")}
        actions={
          <ButtonLink to="/app/create-site">
            <RiAddLine className="h-4 w-4" aria-hidden="true" />
            {t("siteManagement.createNew")}
          </ButtonLink>
        }
      />
      <div className="mb-6 grid gap-4 sm:grid-cols-3">
        <StatCard label={t("siteManagement.totalSites")} value={formatCount(totalSites, locale)} />
        <StatCard label={t("siteManagement.totalSystems")} value={formatCount(totalSystems, locale)} />
        <StatCard
          label={t("siteManagement.totalCapacity")}
          value={formatCapacityKw(totalCapacityKw, locale)}
        />
      </div>
      <EmptyState
        icon={RiBuilding4Line}
        title={t("siteManagement.emptyTitle")}
        description={t("siteManagement.emptyBody")}
      >
        <ButtonLink to="/app/create-site">
          <RiAddLine className="h-4 w-4" aria-hidden="true" />
          {t("siteManagement.createFirst")}
        </ButtonLink>
        <PlaceholderLinks />
      </EmptyState>
    </>
  );
}
