import { RiBriefcase4Line } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Callout, Card } from "@tremor/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { can } from "../../../schema/roles";
import { CreatePortfolioForm } from "../../components/portfolios/create-portfolio-form";
import { MonthlyEnergyExport } from "../../components/portfolios/monthly-energy-export";
import { PortfolioCard } from "../../components/portfolios/portfolio-card";
import { useCurrentProfile } from "../../components/profile-context";
import { NoOrganisation } from "../../components/sites/no-organisation";
import { EmptyState } from "../../components/ui/empty-state";
import { ErrorState } from "../../components/ui/error-state";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { actorFromProfile } from "../../lib/permissions";
import { portfoliosQueryOptions } from "../../lib/queries/portfolios";
import { sitesQueryOptions } from "../../lib/queries/sites";

/** Portfolio Management: create, rename, delete, and add or remove sites; totals come from the server. */
export function PortfoliosPage() {
  const { t } = useTranslation();
  const profile = useCurrentProfile();
  const actor = actorFromProfile(profile);
  const canRead = can(actor, "org:read");
  const canManage = can(actor, "portfolios:manage");
  const portfoliosQuery = useQuery({ ...portfoliosQueryOptions(), enabled: canRead });
  const sitesQuery = useQuery({ ...sitesQueryOptions(), enabled: canRead });

  let body: ReactNode;
  if (!canRead) {
    body = <NoOrganisation />;
  } else if (portfoliosQuery.isPending || sitesQuery.isPending) {
    body = <Spinner label={t("portfolios.loading")} className="py-12" />;
  } else if (portfoliosQuery.isError || sitesQuery.isError) {
    body = (
      <ErrorState
        title={t("portfolios.loadFailed")}
        error={portfoliosQuery.error ?? sitesQuery.error}
        onRetry={() => {
          void portfoliosQuery.refetch();
          void sitesQuery.refetch();
        }}
      />
    );
  } else if (portfoliosQuery.data.length === 0) {
    body = (
      <EmptyState
        icon={RiBriefcase4Line}
        title={t("portfolios.emptyTitle")}
        description={sitesQuery.data.length === 0 ? t("portfolios.emptyNoSites") : t("portfolios.emptyBody")}
      />
    );
  } else {
    body = (
      <ul className="space-y-4">
        {portfoliosQuery.data.map((portfolio) => (
          <li key={portfolio.id}>
            <PortfolioCard portfolio={portfolio} sites={sitesQuery.data} canManage={canManage} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <>
      <PageHeader
        title={t("pages.portfolios")}
        description={t("portfolios.subtitle")}
        actions={canRead ? <MonthlyEnergyExport /> : undefined}
      />
      {!canRead ? null : canManage ? (
        <Card className="mb-6">
          <h2 className="mb-4 text-tremor-title font-semibold text-tremor-content-strong">
            {t("portfolios.create.title")}
          </h2>
          <CreatePortfolioForm />
        </Card>
      ) : (
        <Callout className="mb-6" title={t("portfolios.readOnlyTitle")} color="gray">
          {t("portfolios.readOnlyBody")}
        </Callout>
      )}
      {body}
    </>
  );
}
